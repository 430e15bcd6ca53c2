#!/usr/bin/env bash
# Throughput of one V-cycle (PCVPATCHMG, one pre- and post-smoothing sweep, coarsest level
# 2 cells) in double and in single precision, 3D k = 1..8 at 50-140M DoF, from the GPU time
# of the PCApply event (-log_view -log_view_gpu_time; one PCApply = one V-cycle with the
# double<->float conversions). Usage: bench/vcycle.sh [build dir] [out dir]
set -uo pipefail
B=${1:-build-cuda}; O=${2:-${OUT:-/tmp}}
P=$B/examples/poisson
echo "dim k cells dofs precision vcycles seconds_per_vcycle vcycle_GDoF/s"
for cfg in "1 512" "2 256" "3 128" "4 128" "5 64" "6 64" "7 64" "8 64"; do
  set -- $cfg
  for prec in double single; do
    f=$O/vcycle_k$1_$prec.log
    $P -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -pc_vpatchmg_precision $prec -repeat 3 -log_view -log_view_gpu_time > $f 2>&1
    dofs=$(sed -n 's/.* dofs=\([0-9]*\).*/\1/p' $f)
    grep -E '^PCApply ' $f | awk -v k=$1 -v c=$2 -v n=$dofs -v p=$prec '{printf "3 %s %s %s %s %d %.4e %.2f\n", k, c, n, p, $2, $4/$2, n/($4/$2)/1e9}'
  done
done
