#!/usr/bin/env bash
# Call B: per-kernel GPU times (ncu) of the mixed k = 1 Table 7 Richardson solve's residual and
# conversion kernels, new library (the step's correction in the residual's pass) and HEAD's.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
[ -f build-cuda/libvpatch.so ] || tar -xJf .carry/s50/bins.tar.xz
mkdir -p /tmp/old && [ -f /tmp/old/libvpatch.so ] || tar -xJf .carry/s49/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
for lib in new old; do
  if [ $lib = new ]; then L=$PWD/build-cuda; else L=/tmp/old; fi
  LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH timeout 250 ncu --clock-control none -k regex:"laplace_gather|convert" --metrics gpu__time_duration.sum,launch__registers_per_thread,dram__bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active --csv \
    build-cuda/examples/poisson -dim 3 -degree 1 -cells 512 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 1 -ksp_type richardson -pc_vpatchmg_cuda_graphs 0 > $OUT/ncu_$lib.csv 2> $OUT/ncu_$lib.err
  echo "$lib rc=$? $(grep -c gpu__time_duration $OUT/ncu_$lib.csv) rows"
done
python3 - <<'PY'
import csv, collections, os
out = os.environ['OUT']
for lib in ('new', 'old'):
    rows = [r for r in csv.reader(l for l in open(f'{out}/ncu_{lib}.csv') if l.startswith('"'))]
    h = rows[0]; rows = rows[1:]
    ki, gi, mi, vi = h.index('Kernel Name'), h.index('Grid Size'), h.index('Metric Name'), h.index('Metric Value')
    agg = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        name = r[ki].split('(')[0][:70]
        agg[(name, r[gi])][r[mi]].append(float(r[vi].replace(',', '')))
    print(f'== {lib}')
    for (name, grid), m in sorted(agg.items(), key=lambda kv: -sum(kv[1].get('gpu__time_duration.sum', [0]))):
        t = m.get('gpu__time_duration.sum', [0])
        if sum(t) < 50e3: continue
        by = m.get('dram__bytes.sum', [0])
        print(f"{sum(t)/1e6:8.3f} ms {len(t):3d}x {sum(t)/len(t)/1e3:8.1f} us regs {m.get('launch__registers_per_thread',[0])[0]:.0f} dram {sum(by)/len(by)/1e9:6.2f} GB warps {sum(m.get('sm__warps_active.avg.pct_of_peak_sustained_active',[0]))/len(t):5.1f}% {name} {grid}")
PY
