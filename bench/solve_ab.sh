#!/usr/bin/env bash
# Same-machine A/B of whole solves: each side is a library directory (put first on
# LD_LIBRARY_PATH for build-cuda/examples/poisson), a number of MPI ranks (one GPU each
# where there are that many) and extra options; the sides run in turn for R rounds, so
# that drift hits all alike. Cases: 3D Q3 (128 cells, 57.1M DoF), Q1 (256, 17.0M), Q7 (64,
# 90.5M), each full multigrid + FGMRES(5), mixed precision, -repeat 3 (the Table 7 protocol;
# classical Gram-Schmidt since the forty-first session, modified before). Prints every summary line and each side's best solve
# time per case. Usage:
#   bench/solve_ab.sh OUT ROUNDS 'name|libdir|ranks|options' ...
# e.g. the coarse levels on rank 0 on two GPUs, against the distributed ones:
#   bench/solve_ab.sh $OUT 2 'dist|build-cuda|2|-pc_vpatchmg_agglomerate 0' 'rank0|build-cuda|2|-pc_vpatchmg_agglomerate 2097152'
set -uo pipefail
O=${1:?OUT}; R=${2:?ROUNDS}; shift 2
[ $# -ge 1 ] || { echo "usage: $0 OUT ROUNDS 'name|libdir|ranks|options' ..."; exit 1; }
sides=("$@")
mkdir -p "$O"
P=build-cuda/examples/poisson
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
for cfg in "3 3 128" "3 1 256" "3 7 64"; do
  read -r dim degree cells <<< "$cfg"
  base="-dim $dim -degree $degree -cells $cells -dm_vec_type cuda -pc_type vpatchmg -fmg -ksp_gmres_restart 5 -repeat 3"
  declare -A best=()
  for ((r = 0; r < R; ++r)); do
    for side in "${sides[@]}"; do
      IFS='|' read -r name lib ranks opts <<< "$side"
      line=$(LD_LIBRARY_PATH="$lib:${LD_LIBRARY_PATH:-}" mpiexec --oversubscribe -n "$ranks" $P $base $opts 2>&1 | tee -a "$O/solve_ab_raw.log" | grep '^summary:')
      echo "$name round $r: ${line:-FAILED}"
      t=$(echo "$line" | field solve_s)
      [ -n "$t" ] && best[$name]=$(python3 -c "print(min([float(x) for x in '${best[$name]:-} $t'.split()]))")
    done
  done
  echo -n "dim=$dim degree=$degree cells=$cells best solve_s:"
  for side in "${sides[@]}"; do IFS='|' read -r name _ <<< "$side"; echo -n " $name ${best[$name]:-none}"; done
  echo
  unset best
done
