#!/usr/bin/env bash
# Call E (fifty-first session): where the Table 7 Richardson solves go, final library:
# -log_view -log_view_gpu_time (CUDA graphs off under logging), 2 solves each (-repeat 2),
# k = 1 and 3, double and mixed; the event lines of the plugin and of KSPSolve.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s51/final/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
for cfg in "1 512" "3 256"; do set -- $cfg
for prec in double single; do
  echo "## k=$1 $prec"
  build-cuda/examples/poisson -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 2 -ksp_type richardson -pc_vpatchmg_precision $prec -log_view -log_view_gpu_time > $OUT/log_k$1_$prec.txt 2>&1
  grep '^summary:' $OUT/log_k$1_$prec.txt | grep -o 'iterations=[0-9]*\|solve_s=[^ ]*\|solve_avg_s=[^ ]*' | tr '\n' ' '; echo
  grep -E '^(VPatch[A-Za-z]*|KSPSolve|PCApply |MatResidual|VecNorm|VecCopy|VecAXPY|VecAYPX|MatMult ) ' $OUT/log_k$1_$prec.txt | cut -c1-120
done; done
