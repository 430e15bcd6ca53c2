#!/usr/bin/env python3
"""Hardware-limit shares of the 3D kernels from Nsight Compute (bench/ncu_limits.sh).
Reads the ncu --csv files k<K>_<prec>_<operation>.csv of a directory and prints, per kernel,
the duration of the profiled launch and the utilization of each unit that can bound it, in
% of its peak over the elapsed time: instruction issue (smsp__issue_active), the shared-memory
pipe (l1tex data-pipe LSU wavefronts, shared), L1/TEX overall, L2, HBM (dram), plus the
achieved occupancy. "limit" names the busiest unit: the hardware limit the kernel is closest to.
Usage: bench/ncu_limits.py DIR [--csv OUT.csv]   (markdown table on stdout)"""
import csv, glob, os, re, sys

metrics = {
    "smsp__issue_active.avg.pct_of_peak_sustained_elapsed": "issue",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed": "shared pipe",
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed": "L1/TEX",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed": "L2",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "HBM",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy",
    "gpu__time_duration.sum": "us",
}
units = ["issue", "shared pipe", "L1/TEX", "L2", "HBM"]
rows = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "k*_*_*.csv"))):
    m = re.match(r"k(\d+)_(float|double)_(.+)\.csv", os.path.basename(path))
    lines = [l for l in open(path) if l.startswith('"')]
    vals, kernel = {}, ""
    for r in csv.DictReader(lines):
        if r["Metric Name"] in metrics:
            vals[metrics[r["Metric Name"]]] = float(r["Metric Value"].replace(",", ""))
            kernel = r["Kernel Name"].split("(")[0].replace("void ", "")
    if len(vals) < len(metrics):
        sys.exit(f"{path}: metrics missing")
    vals["us"] /= 1000.0
    rows.append(dict(k=int(m.group(1)), prec=m.group(2), op=m.group(3), kernel=kernel, **vals))
rows.sort(key=lambda r: (r["op"] == "laplace_apply", r["k"], r["prec"] == "double"))
print("| k | prec | operation | kernel | launch [us] | issue | shared pipe | L1/TEX | L2 | HBM | occupancy | limit |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    lim = max(units, key=lambda u: r[u])
    r["limit"] = lim
    print(f"| {r['k']} | {r['prec']} | {r['op']} | `{r['kernel']}` | {r['us']:.0f} | " + " | ".join(f"{r[u]:.0f}%" for u in units) +
          f" | {r['occupancy']:.0f}% | {lim} {r[lim]:.0f}% |")
if "--csv" in sys.argv:
    with open(sys.argv[sys.argv.index("--csv") + 1], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["k", "prec", "op", "kernel", "us"] + units + ["occupancy", "limit"])
        w.writeheader()
        w.writerows(rows)
