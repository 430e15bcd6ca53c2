#!/usr/bin/env bash
# Per-instruction profile of the 3D smoother kernels with Nsight Compute (SourceCounters):
# one launch (one color after the warm-up step) per (k, precision, variant) at about 30M DoF,
# exported as the SASS source page (CSV: executed instructions and stall samples per
# instruction). Summaries by stage (the code between two barriers) and by opcode:
# bench/ncu_stages.py DIR/src_*.csv. Usage: bench/ncu_stages.sh [build dir] [out dir] [k:precision:op ...]
# e.g. bench/ncu_stages.sh build-cuda $OUT/ncu 3:float:smooth_fused 3:double:smooth_fused
set -uo pipefail
B=${1:-build-cuda}; O=${2:-${OUT:-/tmp}/ncu}; shift $(( $# < 2 ? $# : 2 ))
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
mkdir -p $O
for spec in "${@:-3:float:smooth_fused}"; do
  IFS=: read k p op <<< "$spec"
  run="$B/bench/bench_kernels --dim 3 --kmin $k --kmax $k --precision $p --groups 1 --reps 1 --dofs 3e7 --csv /dev/null --ops $op"
  rep=$O/rep_k${k}_${p}_$op
  $NCU --clock-control none --section SourceCounters --section InstructionStats --section LaunchStats --section Occupancy \
    --section SpeedOfLight --section WarpStateStats -k regex:patch --launch-skip 8 -c 1 -f -o $rep $run > $rep.log 2>&1
  $NCU -i $rep.ncu-rep --page source --csv --print-source sass > $O/src_k${k}_${p}_$op.csv
  $NCU -i $rep.ncu-rep --page details > $O/details_k${k}_${p}_$op.txt
  rm -f $rep.ncu-rep # (the CSV and the details hold what the summaries use)
done
