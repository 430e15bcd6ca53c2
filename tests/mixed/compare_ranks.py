#!/usr/bin/env python3
"""Rank independence of the mixed-precision solve (PC vpatchmg, float cycle).

Runs examples/poisson ARGS... -ksp_monitor under MPIEXEC on each rank count of --ranks (the
first one is the reference) and checks:

  * every run exits 0 within --timeout seconds and prints a 'summary:' line with
    rel_residual <= --rtol (1e-9) and ranks = the rank count;
  * dim, degree, cells, levels, dofs, precision and iterations equal the reference's
    (the float cycle sums in a different order on another partition, so the residual
    history agrees only to float round-off amplified by the residual reduction: it is
    printed side by side, not compared);
  * l2_error equal to the reference's to two significant digits (|a - b| <= 5e-3 |b|),
    when printed.

--no-monitor runs without -ksp_monitor (a monitor keeps KSPRichardson off the PCs' fast path,
PCApplyRichardson).

usage: compare_ranks.py --mpiexec PATH --ranks 1,2 [--timeout S] [--no-monitor] -- POISSON ARGS...
"""
import argparse
import re
import subprocess
import sys


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("compare_ranks.py: missing -- before the command")
    sep = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--l2-rtol", type=float, default=5e-3)
    ap.add_argument("--no-monitor", action="store_true")
    args = ap.parse_args(argv[:sep])
    cmd0 = argv[sep + 1:] + ([] if args.no_monitor else ["-ksp_monitor"])
    failures, ref, hists = [], None, {}
    ranks = [int(r) for r in args.ranks.split(",")]
    for n in ranks:
        cmd = [args.mpiexec, "--oversubscribe", "-n", str(n)] + cmd0
        print("+", " ".join(cmd), flush=True)
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout)
            out, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired:
            out, rc = "", "timeout after %gs" % args.timeout
        lines = [l for l in out.splitlines() if l.startswith("summary:")]
        if rc != 0 or not lines:
            print(out[-3000:])
            failures.append("%d rank(s): exit %s, %s summary line" % (n, rc, "a" if lines else "no"))
            continue
        print("  " + lines[-1], flush=True)
        kv = dict(t.split("=", 1) for t in lines[-1].split()[1:] if "=" in t)
        hists[n] = re.findall(r"^\s*\d+ KSP Residual norm (\S+)", out, re.M)
        if kv.get("ranks") != str(n):
            failures.append("%d rank(s): summary says ranks=%s" % (n, kv.get("ranks")))
        if not float(kv["rel_residual"]) <= args.rtol:
            failures.append("%d rank(s): rel_residual %s > %.0e" % (n, kv["rel_residual"], args.rtol))
        if ref is None:
            ref, nref = kv, n
            continue
        for key in ("dim", "degree", "cells", "levels", "dofs", "precision", "iterations"):
            if kv.get(key) != ref.get(key):
                failures.append("%s=%s on %d rank(s), %s on %d rank(s)" % (key, kv.get(key), n, ref.get(key), nref))
            else:
                print("  ok: %s=%s on %d and %d rank(s)" % (key, kv[key], n, nref))
        a, b = kv["l2_error"], ref["l2_error"]
        if a != "none" or b != "none":
            try:
                fa, fb = float(a), float(b)
                ok = abs(fa - fb) <= args.l2_rtol * abs(fb)
            except ValueError:
                ok = False
            if ok:
                print("  ok: l2_error=%s on %d rank(s), %s on %d rank(s) (two digits)" % (a, n, b, nref))
            else:
                failures.append("l2_error=%s on %d rank(s), %s on %d rank(s): not equal to two digits" % (a, n, b, nref))
    if len(hists) > 1:
        print("residual histories (-ksp_monitor):")
        print("  it " + " ".join("%22s" % ("%d rank(s)" % n) for n in hists))
        for i in range(max(len(h) for h in hists.values())):
            print("  %2d " % i + " ".join("%22s" % (h[i] if i < len(h) else "-") for h in hists.values()))
    for f in failures:
        print("FAILED:", f)
    print("PASSED" if not failures else "FAILED")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
