#!/usr/bin/env python3
"""Mixed-precision multigrid (PC vpatchmg, float cycle) against the double PCMG cycle.

For each case "k:cells" runs examples/poisson with the sine right-hand side (so the L2
error of u = prod_i sin(pi x_i) is reported; --rhs exp: u = exp(x + 2y [+ z/2]) with its
nonzero boundary values) and a relative residual tolerance of 1e-9:

  double   -pc_type mg -pc_mg_levels L -mg_levels_pc_type vpatch    (L = log2(cells): the
           coarsest level has 2 cells per direction, one vpatch application solves it)
  vpmg-d   -pc_type vpatchmg -pc_vpatchmg_precision double          (the same cycle, own code)
  mixed    -pc_type vpatchmg                                         (default: single precision)

with the outer Krylov method of --ksp: fgmres (the example's default, right preconditioned),
cg (-ksp_type cg, and the symmetric sweep on every level: -mg_levels_pc_vpatch_sweep
symmetric / -pc_vpatchmg_sweep symmetric) or cg-cycle (-ksp_type cg with the symmetric
cycle: forward sweeps before and backward sweeps after the coarse correction, in PCMG
-pc_mg_distinct_smoothup -mg_levels_up_pc_type vpatch -mg_levels_up_pc_vpatch_sweep backward,
in vpatchmg -pc_vpatchmg_symmetric_cycle) or richardson (-ksp_type richardson: x += B (b - A x)
until ||b - A x|| <= 1e-9 ||b||, the iteration of the paper's Algorithm 2.2; vpatchmg runs it in
its PCApplyRichardson, PCMG's own fast path stops inside a cycle, after its pre-smoothing, so
the PCMG reference runs PETSc's monitored loop, -ksp_monitor ascii:/dev/null). Exits non-zero
if any of these is violated:

  * every run exits 0 and prints a 'summary:' line with rel_residual <= --rtol (1e-9),
    levels = L, and the precision it was asked for (double / double / mixed);
  * iterations(vpmg-d) == iterations(double)           (the same algorithm);
  * iterations(mixed) <= iterations(double) + --max-extra-its (1);
  * l2_error(mixed) equals l2_error(double) to two significant digits:
        |a - b| <= --l2-rtol * |b|       (--l2-rtol 5e-3),
    or, where the double error is at round-off level (b < --roundoff, 1e-12), the absolute
    difference |a - b| <= --roundoff-atol (default: --roundoff; reported as 'roundoff' in
    the table);
    the same for l2_error(vpmg-d) against l2_error(double).

With --fmg the cases run instead (full multigrid first, then the Krylov solve, both with
-pc_type vpatchmg):

  fmg-d    -pc_type vpatchmg -pc_vpatchmg_precision double -fmg
  fmg-s    -pc_type vpatchmg -fmg                                     (single precision)

and next to them the plain double PCMG solve as above. Checks: every run converges as
above; l2_error(fmg-s) equals l2_error(fmg-d) to two digits, and both equal l2_error(double);
the full-multigrid initial guess does not cost iterations: iterations(fmg-*) <= iterations(double);
single precision keeps the double full multigrid's accuracy (level solutions in double, float
cycles): iterations(fmg-s) <= iterations(fmg-d) + --fmg-extra-its (0).

usage: compare_precisions.py --poisson PATH --dim 2|3 --cases K:CELLS,... [--ksp fgmres|cg|cg-cycle|richardson]
                             [--fmg [--fmg-extra-its 0]] [--mpiexec PATH --ranks N] [--timeout S]
                             [--max-extra-its 1] [--l2-rtol 5e-3] [--roundoff 1e-12]
                             [--roundoff-atol A] [--rtol 1e-9] [--vpmg-args "OPTIONS"]
"""
import argparse
import math
import subprocess
import sys
import time


def parse_summary(out):
    lines = [l for l in out.splitlines() if l.startswith("summary:")]
    if not lines:
        return None
    return dict(t.split("=", 1) for t in lines[-1].split()[1:] if "=" in t)


class Runner:
    def __init__(self, args):
        self.args = args
        self.failures = []

    def run(self, label, dim, k, cells, extra):
        a = self.args
        cmd = []
        if a.mpiexec and a.ranks > 1:
            cmd += [a.mpiexec, "--oversubscribe", "-n", str(a.ranks)]
        cmd += [a.poisson, "-dim", str(dim), "-degree", str(k), "-cells", str(cells), "-rhs", a.rhs] + extra
        short = " ".join(cmd[cmd.index(a.poisson) + 1:])
        t0 = time.time()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=a.timeout)
            out, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            rc = "timeout after %gs" % a.timeout
        dt = time.time() - t0
        kv = parse_summary(out)
        tag = "dim=%d k=%d cells=%d %s" % (dim, k, cells, label)
        if rc != 0 or kv is None:
            print("  %5.2fs  %-7s FAILED (exit %s): %s\n%s" % (dt, label, rc, short, out[-3000:]), flush=True)
            self.failures.append("%s: run failed (exit %s, summary line %s)" % (tag, rc, "missing" if kv is None else "present"))
            return None
        print("  %5.2fs  %-7s its=%-3s res=%s l2=%s  %s" % (dt, label, kv["iterations"], kv["rel_residual"], kv["l2_error"], short),
              flush=True)
        res = float(kv["rel_residual"])
        if not res <= a.rtol:
            self.failures.append("%s: rel_residual %.3e > %.0e" % (tag, res, a.rtol))
        if kv["l2_error"] == "none":
            self.failures.append("%s: no l2_error printed (sine or exp right-hand side expected)" % tag)
        return kv

    def expect(self, tag, kv, key, want):
        if kv is not None and kv.get(key) != str(want):
            self.failures.append("%s: %s=%s, expected %s" % (tag, key, kv.get(key), want))

    def same_l2(self, tag, what, kv, ref):
        """Two-digit agreement of kv's l2_error with ref's; returns the table cell."""
        if kv is None or ref is None:
            return "-"
        a, b = float(kv["l2_error"]), float(ref["l2_error"])
        d = abs(a - b)
        rel = d / abs(b) if b != 0 else math.inf
        if abs(b) < self.args.roundoff:
            atol = self.args.roundoff if self.args.roundoff_atol is None else self.args.roundoff_atol
            ok, cell = d <= atol, "%.1e abs (roundoff)" % d
            rule = "|diff| <= %.0e (double error %.3e below %.0e: round-off level)" % (atol, b, self.args.roundoff)
        else:
            ok, cell = d <= self.args.l2_rtol * abs(b), "%.1e rel" % rel
            rule = "|diff| <= %g * |%.3e|" % (self.args.l2_rtol, b)
        if not ok:
            self.failures.append("%s: l2_error %s %.3e vs %.3e: |diff| = %.3e violates %s" % (tag, what, a, b, d, rule))
            cell += " !"
        return cell


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--poisson", required=True)
    ap.add_argument("--dim", type=int, required=True)
    ap.add_argument("--cases", required=True, help="comma separated K:CELLS (cells a power of two >= 4)")
    ap.add_argument("--ksp", choices=["fgmres", "cg", "cg-cycle", "richardson"], default="fgmres")
    ap.add_argument("--fmg", action="store_true")
    ap.add_argument("--rhs", choices=["sine", "exp"], default="sine", help="the example's -rhs (exp: nonzero Dirichlet data)")
    ap.add_argument("--fmg-extra-its", type=int, default=0)
    ap.add_argument("--mpiexec", default=None)
    ap.add_argument("--ranks", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--max-extra-its", type=int, default=1)
    ap.add_argument("--l2-rtol", type=float, default=5e-3)
    ap.add_argument("--roundoff", type=float, default=1e-12)
    ap.add_argument("--roundoff-atol", type=float, default=None, help="allowed |diff| at round-off level (default: --roundoff)")
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--vpmg-args", default="", help="extra options for the vpatchmg runs (white-space separated)")
    args = ap.parse_args()
    R = Runner(args)
    cases = []
    for c in args.cases.split(","):
        k, n = (int(x) for x in c.split(":"))
        L = int(round(math.log2(n)))
        if n < 4 or 2 ** L != n:
            sys.exit("compare_precisions.py: cells must be a power of two >= 4, not %d" % n)
        cases.append((k, n, L))

    ksp_mg, ksp_vp = [], []
    if args.ksp == "cg":
        ksp_mg = ["-ksp_type", "cg", "-mg_levels_pc_vpatch_sweep", "symmetric"]
        ksp_vp = ["-ksp_type", "cg", "-pc_vpatchmg_sweep", "symmetric"]
    elif args.ksp == "cg-cycle":
        ksp_mg = ["-ksp_type", "cg", "-pc_mg_distinct_smoothup", "-mg_levels_up_pc_type", "vpatch", "-mg_levels_up_pc_vpatch_sweep", "backward"]
        ksp_vp = ["-ksp_type", "cg", "-pc_vpatchmg_symmetric_cycle"]
    elif args.ksp == "richardson":
        ksp_mg = ["-ksp_type", "richardson", "-ksp_monitor", "ascii:/dev/null"]
        ksp_vp = ["-ksp_type", "richardson"]
    ksp_vp += args.vpmg_args.split()
    mode = "full multigrid + %s" % args.ksp.upper() if args.fmg else args.ksp.upper()
    atol = args.roundoff if args.roundoff_atol is None else args.roundoff_atol
    if args.fmg:
        checks = ("its(fmg double), its(fmg single) <= its(PCMG double from zero), its(fmg single) <= its(fmg double) + %d, l2"
                  % args.fmg_extra_its)
        checks += " of fmg single = fmg double = PCMG double"
    else:
        checks = "its(mixed) <= its(double) + %d, its(vpatchmg double) == its(PCMG double)" % args.max_extra_its
    print("%dD, %s, %d rank(s), %s right-hand side, rel. residual %.0e; checks: %s, l2 to two digits (rel. diff <= %g, "
          "abs <= %.0e at round-off level < %.0e)" % (args.dim, mode, args.ranks, args.rhs, args.rtol, checks, args.l2_rtol, atol, args.roundoff),
          flush=True)
    rows = []
    t_start = time.time()
    for k, n, L in cases:
        tag = "dim=%d k=%d cells=%d" % (args.dim, k, n)
        print("%s (%d levels):" % (tag, L), flush=True)
        ref = R.run("double", args.dim, k, n, ["-pc_type", "mg", "-pc_mg_levels", str(L), "-mg_levels_pc_type", "vpatch"] + ksp_mg)
        R.expect(tag + " double", ref, "precision", "double")
        R.expect(tag + " double", ref, "levels", L)
        if not args.fmg:
            vd = R.run("vpmg-d", args.dim, k, n, ["-pc_type", "vpatchmg", "-pc_vpatchmg_precision", "double"] + ksp_vp)
            mx = R.run("mixed", args.dim, k, n, ["-pc_type", "vpatchmg"] + ksp_vp)
            R.expect(tag + " vpmg-d", vd, "precision", "double")
            R.expect(tag + " mixed", mx, "precision", "mixed")
        else:
            vd = R.run("fmg-d", args.dim, k, n, ["-pc_type", "vpatchmg", "-pc_vpatchmg_precision", "double", "-fmg"] + ksp_vp)
            mx = R.run("fmg-s", args.dim, k, n, ["-pc_type", "vpatchmg", "-fmg"] + ksp_vp)
            R.expect(tag + " fmg-d", vd, "precision", "double")
            R.expect(tag + " fmg-s", mx, "precision", "mixed")
        R.expect(tag + " " + ("fmg-d" if args.fmg else "vpmg-d"), vd, "levels", L)
        R.expect(tag + " " + ("fmg-s" if args.fmg else "mixed"), mx, "levels", L)
        its = lambda kv: None if kv is None else int(kv["iterations"])
        i_ref, i_vd, i_mx = its(ref), its(vd), its(mx)
        if args.fmg:
            for lab, i in (("fmg-d", i_vd), ("fmg-s", i_mx)):
                if i is not None and i_ref is not None and i > i_ref:
                    R.failures.append("%s %s: %d iterations after full multigrid > %d of the double PCMG solve from zero"
                                      % (tag, lab, i, i_ref))
            if i_mx is not None and i_vd is not None and i_mx > i_vd + args.fmg_extra_its:
                R.failures.append("%s: single-precision full multigrid needs %d iterations > double full multigrid %d + %d"
                                  % (tag, i_mx, i_vd, args.fmg_extra_its))
            # the precisions against each other, and the double full multigrid against PCMG
            c_mx = R.same_l2(tag + " fmg-s vs fmg-d", "fmg-s vs fmg-d", mx, vd)
            c_vd = R.same_l2(tag + " fmg-d vs double", "fmg-d vs double", vd, ref)
        else:
            if i_vd is not None and i_ref is not None and i_vd != i_ref:
                R.failures.append("%s: vpatchmg double needs %d iterations, PCMG double %d (same algorithm: must be equal)"
                                  % (tag, i_vd, i_ref))
            if i_mx is not None and i_ref is not None and i_mx > i_ref + args.max_extra_its:
                R.failures.append("%s: mixed needs %d iterations > double %d + %d" % (tag, i_mx, i_ref, args.max_extra_its))
            c_vd = R.same_l2(tag + " vpmg-d", "vpatchmg double vs PCMG double", vd, ref)
            c_mx = R.same_l2(tag + " mixed", "mixed vs double", mx, ref)
        l2 = lambda kv: "-" if kv is None else kv["l2_error"]
        res = lambda kv: "-" if kv is None else kv["rel_residual"]
        fmt = lambda v: "-" if v is None else str(v)
        rows.append((k, n, L, fmt(i_ref), fmt(i_vd), fmt(i_mx), l2(ref), l2(vd), l2(mx), c_vd, c_mx, res(mx)))

    if args.fmg:
        head = ("| dim | Q_k | cells | levels | its PCMG double | its fmg double | its fmg single | l2 PCMG double | l2 fmg double | "
                "l2 fmg single | fmg-d vs PCMG | fmg-s vs fmg-d | rel_res fmg-s |")
    else:
        head = ("| dim | Q_k | cells | levels | its double | its vpmg double | its mixed | l2 double | l2 vpmg double | l2 mixed | "
                "vpmg-d vs double | mixed vs double | rel_res mixed |")
    print()
    print("%dD, %s, %d rank(s): iterations to rel. residual %.0e and L2 errors (double = -pc_type mg -mg_levels_pc_type vpatch, "
          "vpmg double = -pc_type vpatchmg -pc_vpatchmg_precision double, mixed/single = -pc_type vpatchmg)"
          % (args.dim, mode, args.ranks, args.rtol))
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in rows:
        print("| %d | Q%d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % ((args.dim,) + r))
    print()
    print("total time %.1f s" % (time.time() - t_start))
    for f in R.failures:
        print("FAILED:", f)
    print("PASSED" if not R.failures else "FAILED: %d violation(s)" % len(R.failures))
    sys.exit(1 if R.failures else 0)


if __name__ == "__main__":
    main()
