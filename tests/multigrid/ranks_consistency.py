#!/usr/bin/env python3
"""The multigrid iteration counts do not depend on the number of MPI ranks.

Runs examples/poisson (-rhs one, V-cycle with vertex-patch smoothing, GMRES; and CG with the
symmetric sweep, and the additive smoother) on 1, 2 and 4 ranks and requires the same
iteration count on every rank count, and final relative residuals that agree to 1e-3
relative + 1e-12 (the parallel smoother computes the same numbers up to rounding).

usage: ranks_consistency.py --poisson PATH --mpiexec PATH [--ranks 1,2,4]
"""
import argparse
import subprocess
import sys

CASES = [
    ("2D Q1", "-dim 2 -degree 1 -cells 64 -pc_mg_levels 6"),
    ("2D Q2", "-dim 2 -degree 2 -cells 32 -pc_mg_levels 5"),
    ("2D Q5", "-dim 2 -degree 5 -cells 16 -pc_mg_levels 4"),
    ("2D Q3 CG symmetric", "-dim 2 -degree 3 -cells 16 -pc_mg_levels 4 -ksp_type cg -mg_levels_pc_vpatch_sweep symmetric"),
    ("2D Q2 additive", "-dim 2 -degree 2 -cells 32 -pc_mg_levels 5 -mg_levels_pc_vpatch_type additive"),
    ("3D Q1", "-dim 3 -degree 1 -cells 16 -pc_mg_levels 4"),
    ("3D Q2", "-dim 3 -degree 2 -cells 8 -pc_mg_levels 3"),
    ("3D Q4", "-dim 3 -degree 4 -cells 8 -pc_mg_levels 3"),
    ("3D Q2 Richardson", "-dim 3 -degree 2 -cells 8 -pc_mg_levels 3 -ksp_type richardson -ksp_norm_type unpreconditioned"),
]


def run(args, ranks, opts):
    cmd = [args.mpiexec, "--oversubscribe", "-n", str(ranks), args.poisson, "-rhs", "one", "-pc_type", "mg",
           "-mg_levels_pc_type", "vpatch"] + opts.split()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [l for l in p.stdout.splitlines() if l.startswith("summary:")]
    if p.returncode != 0 or not lines:
        print("FAILED command (exit code %d): %s\n%s" % (p.returncode, " ".join(cmd), p.stdout[-3000:]))
        return None, None
    kv = dict(t.split("=", 1) for t in lines[-1].split()[1:] if "=" in t)
    if int(kv["ranks"]) != ranks:
        print("FAILED: summary reports %s ranks, expected %d" % (kv["ranks"], ranks))
        return None, None
    return int(kv["iterations"]), float(kv["rel_residual"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poisson", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--ranks", default="1,2,4")
    args = ap.parse_args()
    ranks = [int(r) for r in args.ranks.split(",")]
    failures = []
    print("| case | options | " + " | ".join("%d rank(s): its (residual)" % r for r in ranks) + " |")
    print("|---|---|" + "---|" * len(ranks))
    for name, opts in CASES:
        res = [run(args, r, opts) for r in ranks]
        print("| %s | %s | %s |" % (name, opts, " | ".join("-" if i is None else "%d (%.3e)" % (i, rr) for i, rr in res)), flush=True)
        if any(i is None for i, _ in res):
            failures.append("%s: a run failed" % name)
            continue
        its = [i for i, _ in res]
        if len(set(its)) != 1:
            failures.append("%s: iteration counts differ across ranks %s: %s" % (name, ranks, its))
        r0 = res[0][1]
        for (i, rr), nr in zip(res, ranks):
            if rr > 1e-9:
                failures.append("%s on %d ranks: relative residual %.3e > 1e-9" % (name, nr, rr))
            if abs(rr - r0) > 1e-3 * r0 + 1e-12:  # below 1e-12 the residual is rounding
                failures.append("%s on %d ranks: relative residual %.6e differs from 1 rank %.6e" % (name, nr, rr, r0))
    for f in failures:
        print("FAILED:", f)
    print("PASSED" if not failures else "FAILED: %d problems" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
