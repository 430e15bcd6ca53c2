#!/usr/bin/env bash
# A/B of -pc_vpatchmg_agglomerate on several GPUs of one host, on one machine: the same
# solves on N ranks (one per GPU) with the coarse levels distributed (A) and on rank 0 alone
# below 2^21 points (B), alternating A and B for R rounds so that drift hits both; prints the
# summary lines and the best solve time of each side per case.
# Usage: bench/agglomerate_ab.sh [build dir] [out dir] [ranks] [rounds]
set -uo pipefail
B=${1:-build-cuda}; O=${2:-${OUT:-/tmp}}; N=${3:-2}; R=${4:-2}
mkdir -p "$O"
P=$B/examples/poisson
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
for cfg in "3 3 128" "3 1 256" "3 7 64"; do
  set -- $cfg
  base="-dim $1 -degree $2 -cells $3 -dm_vec_type cuda -pc_type vpatchmg -fmg -ksp_gmres_restart 5 -ksp_gmres_modifiedgramschmidt -repeat 3"
  best_a=""; best_b=""
  for ((r = 0; r < R; ++r)); do
    for side in a b; do
      opt="-pc_vpatchmg_agglomerate 0"; [ $side = b ] && opt="-pc_vpatchmg_agglomerate 2097152"
      line=$(mpiexec -n $N $P $base $opt 2>&1 | tee -a $O/agglomerate_ab_raw.log | grep '^summary:')
      echo "$side round $r: $line"
      t=$(echo "$line" | field solve_s)
      if [ $side = a ]; then best_a=$(python3 -c "print(min([float(x) for x in '$best_a $t'.split()]))")
      else best_b=$(python3 -c "print(min([float(x) for x in '$best_b $t'.split()]))"); fi
    done
  done
  echo "dim=$1 degree=$2 cells=$3 ranks=$N: distributed coarse levels $best_a s, on rank 0 $best_b s"
done
