#!/usr/bin/env bash
# Time to a 1e-9 relative residual on one GPU, side by side on the same matrix-free
# hierarchy: PCMG with vpatch levels, PCMG with PETSc's Chebyshev/Jacobi levels, and
# PCVPATCHMG in double and in single precision (mixed), all under FGMRES(10), and the mixed cycle under
# Richardson (richardson: PCVPATCHMG's PCApplyRichardson, iterative refinement); 3D, k = 1..7 at about
# 17-140M DoF (logs with -log_view). Usage: bench/solve_compare.sh [build dir] [out dir] [repeats] [degrees, e.g. "1 2"]
set -uo pipefail
B=${1:-build-cuda}; O=${2:-${OUT:-/tmp}}; R=${3:-3}; K=" ${4:-1 2 3 4 5 6 7} "
P=$B/examples/poisson
mkdir -p "$O"
for cfg in "1 512 9" "2 128 7" "3 128 7" "4 128 7" "5 64 6" "6 64 6" "7 64 6"; do
  set -- $cfg; k=$1; n=$2; L=$3
  [[ "$K" == *" $k "* ]] || continue
  common="-dim 3 -degree $k -cells $n -dm_vec_type cuda -repeat $R -ksp_gmres_restart 10 -log_view"
  for s in vpatch cheb double mixed richardson; do
    case $s in
      double) opts="-pc_type vpatchmg -pc_vpatchmg_precision double" ;;
      richardson) opts="-pc_type vpatchmg -ksp_type richardson" ;;
      vpatch) opts="-pc_type mg -pc_mg_levels $L -mg_levels_pc_type vpatch" ;;
      cheb)   opts="-pc_type mg -pc_mg_levels $L -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -mg_levels_ksp_max_it 2" ;;
      mixed)  opts="-pc_type vpatchmg" ;;
    esac
    $P $common $opts > $O/cmp_k${k}_$s.log 2>&1
    line=$(grep '^summary:' $O/cmp_k${k}_$s.log)
    echo "$line smoother=$s"
  done
done
