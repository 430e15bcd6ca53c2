#!/usr/bin/env python3
"""Plots the kernel benchmark CSV (bench_kernels --csv): throughput of one smoothing step per
kernel variant and of MatMult, per degree, 2D and 3D, float and double.
Usage: bench/plot_kernels.py results.csv out.png"""
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
fig, axes = plt.subplots(2, 2, figsize=(11, 8), sharex=True)
ops = ["smooth_fused", "smooth_boundary", "smooth_basic", "smooth_global", "laplace_apply"]
for (i, dim) in enumerate(("2", "3")):
    for (j, prec) in enumerate(("double", "float")):
        ax = axes[i][j]
        for op in ops:
            pts = sorted((int(r["k"]), float(r["gdofs_per_s"])) for r in rows if r["dim"] == dim and r["precision"] == prec and r["operation"] == op)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=op.replace("smooth_", "smoother ").replace("laplace_apply", "MatMult"))
        ax.set_title(f"{dim}D, {prec} ({rows[0]['device']})")
        ax.set_ylabel("GDoF/s")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        if i == 1:
            ax.set_xlabel("degree k")
axes[0][0].legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
