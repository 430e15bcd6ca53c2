#!/usr/bin/env bash
# The paper's Table 7 on one GPU (or one rank per GPU on several: TABLE7_RANKS): 3D, k = 1, 3, 7 at 135M, 454M and 721M DoF, full
# multigrid then FGMRES to a 1e-9 relative residual, with the V-cycle in double and in
# single precision (PCVPATCHMG). Prints the summary lines and the peak device memory.
# Usage: bench/table7.sh [build dir] [out dir] [repeats] [fmg|nofmg] [skip-cg]
# (TABLE7_OPTS: extra options for every solve, e.g. -ksp_gmres_modifiedgramschmidt, or
#  -ksp_type richardson: the paper's Algorithm 2.2 iteration, PCVPATCHMG's PCApplyRichardson;
#  TABLE7_DEGREES: the rows to run, default "1 3 7"; TABLE7_RANKS: MPI ranks, one per GPU,
#  default 1)
# (nofmg: the Krylov solve from zero, so both precisions run the same number of cycles)
set -uo pipefail
B=${1:-build-cuda}; O=${2:-${OUT:-/tmp}}; R=${3:-3}; START=${4:-fmg}; CG=${5:-cg}
mkdir -p "$O"
FMG=""; [ "$START" = fmg ] && FMG=-fmg
P=$B/examples/poisson
R_MPI=${TABLE7_RANKS:-1}
MPI=""; [ "$R_MPI" -gt 1 ] && MPI="mpiexec -n $R_MPI"
run() { # label, options
  local label=$1; shift
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 > $O/mem_$label.log &
  local mon=$!
  local line
  line=$($MPI $P -dim 3 "$@" -dm_vec_type cuda -pc_type vpatchmg $FMG -repeat $R -ksp_gmres_restart 5 ${TABLE7_OPTS:-} 2>&1 | tee $O/run_$label.log | grep '^summary:')
  kill $mon; wait $mon 2>/dev/null
  local peak; peak=$(sort -n $O/mem_$label.log | tail -1)
  echo "$line peak_device_mib=$peak label=$label"
}
for cfg in "1 512" "3 256" "7 128"; do
  set -- $cfg
  [[ " ${TABLE7_DEGREES:-1 3 7} " == *" $1 "* ]] || continue
  for prec in double single; do run "k$1_$prec" -degree $1 -cells $2 -pc_vpatchmg_precision $prec; done
done
[ "$CG" = cg ] || exit 0
# device memory of a double CG + vpatch PCMG solve at 721M DoF (in vectors of 721M doubles)
nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 > $O/mem_cg.log & mon=$!
base=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits)
line=$($P -dim 3 -degree 7 -cells 128 -dm_vec_type cuda -ksp_type cg -pc_type mg -pc_mg_levels 7 -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_sweep symmetric 2>&1 | tee $O/run_cg.log | grep '^summary:')
kill $mon; wait $mon 2>/dev/null
peak=$(sort -n $O/mem_cg.log | tail -1)
echo "$line peak_device_mib=$peak vectors=$(python3 -c "print(round(($peak-$base)*2**20/(897**3*8),2))") label=cg_k7_double"
