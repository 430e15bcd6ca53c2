#!/usr/bin/env python3
"""Run a command and check its outcome; used by the multigrid ctest tests.

usage: run_check.py [--rc zero|nonzero] [--match REGEX]... [--forbid REGEX]...
                    [--converged MAXITS] [--rtol 1e-9] [--max-l2 X] -- command ...

--rc        zero: the command must succeed; nonzero: it must fail (with an error, not a
            signal: exit codes >= 128 or killed by a signal count as a crash)
--match     a regular expression the combined output must contain (repeatable)
--forbid    a regular expression it must not contain (repeatable); crash markers
            ('Caught signal', 'Segmentation', 'SEGV', 'Aborted (core dumped)') always are
--converged the last 'summary:' line of examples/poisson must report
            rel_residual <= rtol and iterations <= MAXITS
--max-l2    the last 'summary:' line must report l2_error <= X

A command that must succeed (--rc zero) also runs with -malloc_dump -malloc_debug appended
and must leave nothing unfreed: no line of PETSc's
report, '[ 0] 64 bytes ...' (tests/discretization/check_malloc_dump.sh reads the same).
"""
import re
import subprocess
import sys


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("run_check.py: missing -- before the command")
    sep = argv.index("--")
    opts, cmd = argv[:sep], argv[sep + 1:]
    rc_mode, matches, forbids, maxits, rtol, max_l2 = "zero", [], [], None, 1e-9, None
    i = 0
    while i < len(opts):
        o = opts[i]
        v = opts[i + 1]
        if o == "--rc":
            rc_mode = v
        elif o == "--match":
            matches.append(v)
        elif o == "--forbid":
            forbids.append(v)
        elif o == "--converged":
            maxits = int(v)
        elif o == "--rtol":
            rtol = float(v)
        elif o == "--max-l2":
            max_l2 = float(v)
        else:
            sys.exit("run_check.py: unknown option " + o)
        i += 2
    forbids += [r"Caught signal", r"Segmentation", r"SEGV", r"core dumped"]
    if rc_mode == "zero":
        cmd = cmd + ["-malloc_dump", "-malloc_debug"]
        forbids.append(r"(?m)^\[ *[0-9]+\] *[0-9]+ bytes( |$)|Total space allocated")
    print("command:", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout
    print(out)
    print("exit code:", p.returncode)
    errors = []
    if p.returncode < 0 or p.returncode >= 128:
        errors.append("the command crashed (exit code %d)" % p.returncode)
    if rc_mode == "zero" and p.returncode != 0:
        errors.append("expected success, got exit code %d" % p.returncode)
    if rc_mode == "nonzero" and p.returncode == 0:
        errors.append("expected a non-zero exit code")
    for m in matches:
        if not re.search(m, out):
            errors.append("output lacks /%s/" % m)
    for f in forbids:
        if re.search(f, out):
            errors.append("output contains /%s/" % f)
    summaries = [l for l in out.splitlines() if l.startswith("summary:")]
    kv = dict(t.split("=", 1) for t in summaries[-1].split()[1:] if "=" in t) if summaries else {}
    if (maxits is not None or max_l2 is not None) and not summaries:
        errors.append("no summary line")
    if max_l2 is not None and summaries:
        l2 = float(kv["l2_error"])
        print("l2_error=%.3e (limit %.1e)" % (l2, max_l2))
        if not l2 <= max_l2:
            errors.append("L2 error %.3e > %.1e" % (l2, max_l2))
    if maxits is not None and summaries:
        its, res = int(kv["iterations"]), float(kv["rel_residual"])
        print("iterations=%d rel_residual=%.3e (limits %d, %.1e)" % (its, res, maxits, rtol))
        if not res <= rtol:
            errors.append("relative residual %.3e > %.1e" % (res, rtol))
        if its > maxits:
            errors.append("%d iterations > %d" % (its, maxits))
    for e in errors:
        print("FAILED:", e)
    if not errors:
        print("PASSED")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
