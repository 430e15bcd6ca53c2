#!/usr/bin/env bash
# Throughput of one V-cycle (PCVPATCHMG, one pre- and post-smoothing sweep, coarsest level
# 2 cells) in double and in single precision, 2D k = 1..8 at 26-67M DoF and 3D k = 1..8 at 33-135M DoF, from the GPU time
# of the PCApply event (-log_view -log_view_gpu_time; one PCApply = one V-cycle with the
# double<->float conversions). Usage: bench/vcycle.sh [build dir] [out dir] [degrees, e.g. "1 2"] [dims, e.g. "2"]
set -uo pipefail
B=${1:-build-cuda}; O=${2:-${OUT:-/tmp}}; K=" ${3:-1 2 3 4 5 6 7 8} "; D=" ${4:-2 3} "
mkdir -p "$O"
P=$B/examples/poisson
echo "dim k cells dofs precision vcycles seconds_per_vcycle vcycle_GDoF/s"
for cfg in "2 1 8192" "2 2 4096" "2 3 2048" "2 4 2048" "2 5 1024" "2 6 1024" "2 7 1024" "2 8 1024" \
           "3 1 512" "3 2 256" "3 3 128" "3 4 128" "3 5 64" "3 6 64" "3 7 64" "3 8 64"; do
  set -- $cfg
  [[ "$K" == *" $2 "* && "$D" == *" $1 "* ]] || continue
  for prec in double single; do
    f=$O/vcycle_${1}d_k$2_$prec.log
    $P -dim $1 -degree $2 -cells $3 -dm_vec_type cuda -pc_type vpatchmg -pc_vpatchmg_precision $prec -repeat 3 -log_view -log_view_gpu_time > $f 2>&1
    dofs=$(sed -n 's/.* dofs=\([0-9]*\).*/\1/p' $f)
    grep -E '^PCApply ' $f | awk -v d=$1 -v k=$2 -v c=$3 -v n=$dofs -v p=$prec '{printf "%s %s %s %s %s %d %.4e %.2f\n", d, k, c, n, p, $2, $4/$2, n/($4/$2)/1e9}'
  done
done
