#!/usr/bin/env bash
# Call C (fifty-second session): how much of full multigrid is launch latency: full multigrid
# alone (-ksp_type preonly -fmg) and one V-cycle from zero (preonly) on the graph-level meshes
# (3D k = 1 at 64 cells, k = 3 at 32, k = 7 at 16) and above, graphs on and off, fastest of 10;
# and k = 1 Richardson with float level solutions in the full multigrid (-pc_vpatchmg_fmg_double 0).
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s51/final/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
P=build-cuda/examples/poisson
for cfg in "1 64 -fmg" "1 64 -none" "1 128 -none" "1 512 -none" "3 32 -fmg" "3 64 -fmg" "7 16 -fmg" "7 32 -fmg"; do set -- $cfg
  F=$3; [ "$F" = -none ] && F=""
  for g in 1 0; do for prec in double single; do
    echo "k=$1 cells=$2 $prec preonly $F graphs=$g $($P -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg $F -repeat 10 -ksp_type preonly -pc_vpatchmg_cuda_graphs $g -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'rel_residual=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
  done; done
done
for fd in 1 0; do
  echo "k=1 512 richardson mixed fmg_double=$fd $($P -dim 3 -degree 1 -cells 512 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 5 -ksp_type richardson -pc_vpatchmg_fmg_double $fd 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done
