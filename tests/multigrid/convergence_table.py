#!/usr/bin/env python3
"""Acceptance table of the vertex-patch multigrid (paper Tables 1 and 2).

Runs examples/poisson with f = 1 (-rhs one), relative residual 1e-9 from a zero initial
guess, one pre- and one post-smoothing step with PCVPATCH on every level (the default of
-mg_levels_pc_type vpatch) and the coarsest level at 2 cells per direction, and prints a
markdown table of iteration counts next to the paper's:

  GMRES       V-cycle preconditioned GMRES (-ksp_type gmres; the example then preconditions
              from the right and stops on the true residual), at the levels L-2, L-1 and L
  Richardson  the plain V-cycle iteration (-ksp_type richardson -ksp_norm_type
              unpreconditioned), level L
  CG          CG with the symmetric cycle (-mg_levels_pc_vpatch_sweep symmetric), level L

Exits non-zero if a bound is violated:
  * every run reaches the relative residual 1e-9 (rel_residual of the summary line),
  * GMRES at each of the three levels <= 1 + the paper's largest count for the degree,
  * GMRES does not grow over the last three levels: its(L) <= its(L-1) <= its(L-2) + 1
    (one step of pre-asymptotic growth allowed between L-2 and L-1, none after),
  * CG <= GMRES(L) + 2,
  * Richardson <= 2 * (paper + 1) (the V-cycle alone is a convergent iteration with a
    level-independent rate; the paper's counts are for FMG + V-cycles).

usage: convergence_table.py --dim 2|3 --poisson PATH [--mpiexec PATH --ranks N]
                            [--degrees 1,2,...] [--quick]
"""
import argparse
import math
import os
import subprocess
import sys
import time

PAPER = {
    2: {1: 9, 2: 5, 3: 3, 4: 3, 5: 3, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2},
    3: {1: 6, 2: 5, 3: 3, 4: 3, 5: 3, 6: 3},
}
# Finest cells per direction (a power of two) for each degree.
FINEST = {
    2: {1: 256, 2: 256, 3: 128, 4: 128, 5: 64, 6: 64, 7: 64, 8: 64, 9: 64, 10: 64},
    3: {1: 32, 2: 32, 3: 16, 4: 16, 5: 16, 6: 16},
}
QUICK = {
    2: {k: 16 for k in range(1, 11)},
    3: {k: 8 for k in range(1, 7)},
}


def run(args, dim, k, cells, extra):
    levels = int(round(math.log2(cells)))  # coarsest level: 2 cells per direction
    cmd = []
    if args.mpiexec and args.ranks > 1:
        cmd += [args.mpiexec, "--oversubscribe", "-n", str(args.ranks)]
    cmd += [args.poisson, "-dim", str(dim), "-degree", str(k), "-cells", str(cells), "-rhs", "one",
            "-pc_type", "mg", "-pc_mg_levels", str(levels), "-mg_levels_pc_type", "vpatch"] + extra
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    dt = time.time() - t0
    lines = [l for l in p.stdout.splitlines() if l.startswith("summary:")]
    if p.returncode != 0 or not lines:
        print("command failed (exit code %d): %s\n%s" % (p.returncode, " ".join(cmd), p.stdout[-4000:]))
        return None, None, dt
    kv = dict(t.split("=", 1) for t in lines[-1].split()[1:] if "=" in t)
    print("  %5.2fs  its=%-3s res=%s  %s" % (dt, kv["iterations"], kv["rel_residual"], " ".join(cmd[cmd.index(args.poisson):])),
          flush=True)
    return int(kv["iterations"]), float(kv["rel_residual"]), dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, required=True)
    ap.add_argument("--poisson", required=True)
    ap.add_argument("--mpiexec", default=None)
    ap.add_argument("--ranks", type=int, default=1)
    ap.add_argument("--degrees", default=None)
    ap.add_argument("--quick", action="store_true", help="small meshes (for trying the script)")
    ap.add_argument("--output", default=None, help="also write the markdown table to this file")
    args = ap.parse_args()
    dim = args.dim
    degrees = [int(x) for x in args.degrees.split(",")] if args.degrees else sorted(PAPER[dim])
    finest = QUICK[dim] if args.quick else FINEST[dim]
    rtol = 1e-9
    failures, rows = [], []
    t_start = time.time()
    for k in degrees:
        N = finest[k]
        L = int(round(math.log2(N)))
        bound = PAPER[dim][k] + 1
        print("dim=%d k=%d: levels %d..%d (finest %d cells)" % (dim, k, L - 2, L, N), flush=True)
        gm = []
        for cells in (N // 4, N // 2, N):
            its, res, _ = run(args, dim, k, cells, ["-ksp_type", "gmres"])
            gm.append(its)
            if its is None:
                failures.append("dim=%d k=%d cells=%d GMRES: run failed" % (dim, k, cells))
                continue
            if not res <= rtol:
                failures.append("dim=%d k=%d cells=%d GMRES: rel_residual %.3e > %.0e" % (dim, k, cells, res, rtol))
            if its > bound:
                failures.append("dim=%d k=%d cells=%d GMRES: %d iterations > %d (paper %d + 1)" % (dim, k, cells, its, bound, PAPER[dim][k]))
        if None not in gm:
            if not (gm[2] <= gm[1] <= gm[0] + 1):
                failures.append("dim=%d k=%d GMRES counts grow over the last three levels: %s" % (dim, k, gm))
        rich, rres, _ = run(args, dim, k, N, ["-ksp_type", "richardson", "-ksp_norm_type", "unpreconditioned"])
        if rich is None:
            failures.append("dim=%d k=%d Richardson: run failed" % (dim, k))
        else:
            if not rres <= rtol:
                failures.append("dim=%d k=%d Richardson: rel_residual %.3e > %.0e" % (dim, k, rres, rtol))
            if rich > 2 * bound:
                failures.append("dim=%d k=%d Richardson: %d iterations > %d" % (dim, k, rich, 2 * bound))
        cg, cres, _ = run(args, dim, k, N, ["-ksp_type", "cg", "-mg_levels_pc_vpatch_sweep", "symmetric"])
        if cg is None:
            failures.append("dim=%d k=%d CG: run failed" % (dim, k))
        else:
            if not cres <= rtol:
                failures.append("dim=%d k=%d CG: rel_residual %.3e > %.0e" % (dim, k, cres, rtol))
            if gm[2] is not None and cg > gm[2] + 2:
                failures.append("dim=%d k=%d CG (symmetric cycle): %d iterations > GMRES %d + 2" % (dim, k, cg, gm[2]))
        rows.append((k, N, L, gm, rich, cg))

    fmt = lambda v: "-" if v is None else str(v)
    table = []
    table.append("Iteration counts to a relative residual of 1e-9, f = 1, %dD, %d rank(s), V-cycle with one pre- and one post-smoothing "
                 "vertex-patch sweep, coarsest level 2 cells per direction (L = log2 of the finest cells per direction)." % (dim, args.ranks))
    table.append("")
    table.append("| Q_k | finest cells (L) | paper Table %d | bound | GMRES L-2 | GMRES L-1 | GMRES L | Richardson L | CG symmetric L |"
                 % (1 if dim == 2 else 2))
    table.append("|---|---|---|---|---|---|---|---|---|")
    for k, N, L, gm, rich, cg in rows:
        table.append("| Q%d | %d (%d) | %d | %d | %s | %s | %s | %s | %s |" % (k, N, L, PAPER[dim][k], PAPER[dim][k] + 1, fmt(gm[0]),
                                                                     fmt(gm[1]), fmt(gm[2]), fmt(rich), fmt(cg)))
    print()
    print("\n".join(table))
    print()
    if args.output:
        with open(args.output, "w") as f:
            f.write("\n".join(table) + "\n")
    print("total time %.1f s" % (time.time() - t_start))
    for f in failures:
        print("FAILED:", f)
    print("PASSED" if not failures else "FAILED: %d violations" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
