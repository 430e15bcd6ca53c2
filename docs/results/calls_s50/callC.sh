#!/usr/bin/env bash
# Call C: launch shapes of the corrected residual kernel (variant libraries built by
# TUNE_FILES=laplace bench/tune_variant_lib.sh NAME -DVPATCH_GATHER_STAGES_CORRECTED=S /
# -DVPATCH_GATHER_MIN_BLOCKS_CORRECTED=B): ncu time of the 3D k = 1 corrected kernel in the
# mixed Table 7 Richardson solve, and the solve's time (fastest of 3), two rounds.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s50/bins.tar.xz
tar -xJf .carry/s50/tune.tar.xz
mkdir -p /tmp/old && tar -xJf .carry/s49/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
V="base s6 mb6 mb7 s6mb6 s3 mball6"
RUN="build-cuda/examples/poisson -dim 3 -degree 1 -cells 512 -dm_vec_type cuda -pc_type vpatchmg -fmg -ksp_type richardson"
for v in $V; do
  LD_LIBRARY_PATH=$PWD/build-tune/$v:$LD_LIBRARY_PATH timeout 120 ncu --clock-control none -k regex:"laplace_gather" --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv $RUN -repeat 1 -pc_vpatchmg_cuda_graphs 0 > $OUT/ncu_$v.csv 2>/dev/null
  python3 - $OUT/ncu_$v.csv $v <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
h = rows[0]; rows = rows[1:]
ki, gi, mi, vi = h.index('Kernel Name'), h.index('Grid Size'), h.index('Metric Name'), h.index('Metric Value')
m = collections.defaultdict(list)
for r in rows:
    if '3, 1, double, 1, float, 1, 1>' in r[ki] and r[gi] == '(17, 65, 17)': m[r[mi]].append(float(r[vi].replace(',', '')))
if m:
    t = m['gpu__time_duration.sum']
    print(f"{sys.argv[2]:6s} corrected k=1: {len(t)}x best {min(t)/1e3:.1f} us mean {sum(t)/len(t)/1e3:.1f} us regs {m['launch__registers_per_thread'][0]:.0f} warps {sum(m['sm__warps_active.avg.pct_of_peak_sustained_active'])/len(t):.1f}% dram {sum(m['dram__throughput.avg.pct_of_peak_sustained_elapsed'])/len(t):.1f}%")
agg = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    if r[gi] in ('(17, 65, 17)', '(17, 33, 17)'): agg[r[ki].split('(')[0].replace('void vpatch::cuda::detail::', '')][r[mi]].append(float(r[vi].replace(',', '')))
for name, mm in sorted(agg.items()):
    t = mm['gpu__time_duration.sum']
    print(f"   {name}: {len(t)}x mean {sum(t)/len(t)/1e3:.1f} us regs {mm['launch__registers_per_thread'][0]:.0f} warps {sum(mm['sm__warps_active.avg.pct_of_peak_sustained_active'])/len(t):.1f}%")
PY
done
for round in 1 2; do for v in $V old; do
  if [ $v = old ]; then L=/tmp/old; else L=$PWD/build-tune/$v; fi
  echo "round $round $v $(LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH $RUN -repeat 3 -pc_vpatchmg_precision single 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done
