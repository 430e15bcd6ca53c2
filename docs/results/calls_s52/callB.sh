#!/usr/bin/env bash
# Call B (fifty-second session): the k = 1 full multigrid's parts. bench_kernels at 3D k = 1,
# 135M DoF; the plain copy's HBM rate; full multigrid alone (-ksp_type preonly -fmg) at 512,
# 256, 128 cells and one V-cycle from zero (preonly) at 512, fastest of 5.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s51/final/bins.tar.xz
tar -xJf .carry/s52/bench.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
build-cuda/bench/hbm_copy 2>&1 | tail -3
build-cuda/bench/bench_kernels --dim 3 --kmin 1 --kmax 1 --dofs 135e6 --csv $OUT/k1.csv > $OUT/k1.txt 2>&1; cut -d, -f4-8,15-17 $OUT/k1.csv
P=build-cuda/examples/poisson
for cfg in "512 -fmg" "256 -fmg" "128 -fmg" "512 "; do set -- $cfg
for prec in double single; do
  echo "k=1 cells=$1 $prec preonly $2 $($P -dim 3 -degree 1 -cells $1 -dm_vec_type cuda -pc_type vpatchmg $2 -repeat 5 -ksp_type preonly -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'rel_residual=[^ ]*\|solve_s=[^ ]*\|solve_avg_s=[^ ]*' | tr '\n' ' ')"
done; done
