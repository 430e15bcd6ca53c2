#!/usr/bin/env python3
"""Section 1 table of docs/performance.md from a bench_kernels CSV: per (dim, k, precision) the
fastest smoother variant among Fused, Boundary, Basic and Global with its share of the on-chip and
HBM rooflines, and MatMult with both shares; "bound" names the roofline with the lower
attainable rate (the higher share), the one the targets apply to. The on-chip roofline is capped
by the arithmetic peak (bench_kernels' fp_peak_gflops column); for a CSV written before that
column, the peak follows from its on-chip bandwidth B = SMs x 128 B x clock and the FP32 / FP64
lanes per SM of the devices named below.
Usage: bench/roofline_table.py results.csv"""
import csv, math, sys

LANES = {"H100": (128, 64), "H200": (128, 64), "A100": (64, 32)}  # FP32, FP64 lanes per SM

def capped(r):
    """Recomputes roofline_pct under the arithmetic peak where the CSV lacks it."""
    if r.get("fp_peak_gflops") is None:
        lanes = next((l for name, l in LANES.items() if name in r["device"]), None)
        if lanes and not math.isnan(float(r["roofline_gflops"])):
            peak = float(r["onchip_bw_gbs"]) / 128 * lanes[r["precision"] == "double"] * 2
            r["roofline_pct"] = str(100 * float(r["gflops"]) / min(float(r["roofline_gflops"]), peak))
    return r

rows = [capped(r) for r in csv.DictReader(open(sys.argv[1]))]
by = {(r["dim"], int(r["k"]), r["precision"], r["operation"]): r for r in rows}
pct = lambda v: "-" if math.isnan(float(v)) else f"{float(v):.0f}%"
print("| dim | k | prec | smoother best variant | GDoF/s | % on-chip roofline | % HBM | MatMult GDoF/s | MatMult % on-chip | MatMult % HBM | MatMult bound |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for dim, k, prec in sorted({(d, k, p) for d, k, p, _ in by}, key=lambda t: (t[0], t[1], t[2] == "float")):
    smoothers = [by[(dim, k, prec, op)] for op in ("smooth_fused", "smooth_boundary", "smooth_basic", "smooth_global") if (dim, k, prec, op) in by]
    s = max(smoothers, key=lambda r: float(r["gdofs_per_s"]))
    m = by[(dim, k, prec, "laplace_apply")]
    on, hbm = float(m["roofline_pct"]), float(m["hbm_pct"])
    print(f"| {dim} | {k} | {prec} | {s['operation'].replace('smooth_', '')} | {float(s['gdofs_per_s']):.2f} | {pct(s['roofline_pct'])} | {pct(s['hbm_pct'])} "
          f"| {float(m['gdofs_per_s']):.1f} | {on:.1f}% | {hbm:.0f}% | {'on-chip' if on > hbm else 'HBM'} |")
