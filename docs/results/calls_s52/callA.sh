#!/usr/bin/env bash
# Call A (fifty-second session): where the k = 1 Table 7 Richardson solve goes without logging:
# full solve, full multigrid alone (-ksp_max_it 0), each with CUDA graphs on and off; fastest of 5.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s51/final/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
P=build-cuda/examples/poisson
for extra in "" "-ksp_max_it 0" "-pc_vpatchmg_cuda_graphs 0" "-ksp_max_it 0 -pc_vpatchmg_cuda_graphs 0" "-ksp_max_it 1"; do
for prec in double single; do
  echo "k=1 $prec [$extra] $($P -dim 3 -degree 1 -cells 512 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 5 -ksp_type richardson -pc_vpatchmg_precision $prec $extra 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|solve_s=[^ ]*\|solve_avg_s=[^ ]*' | tr '\n' ' ')"
done; done
