#!/usr/bin/env bash
# Hardware-unit utilization of the 3D kernels with Nsight Compute: for k = 1..8, float and
# double, one launch (one color) of the fastest smoother variant (bench/results_h200.csv) and
# one MatMult, at about 30M DoF; metrics: instruction issue, shared-memory pipe, L1/TEX, L2,
# HBM throughput, occupancy. Table: bench/ncu_limits.py DIR. (ncu runs at its locked base
# clock, so its launch times are longer than the benchmark's; the shares are of the peak at
# that clock.)
# Usage: bench/ncu_limits.sh [build dir] [out dir]
set -uo pipefail
B=${1:-build-cuda}; O=${2:-${OUT:-/tmp}/ncu}
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
mkdir -p $O
for spec in 1:float:smooth_fused 1:double:smooth_fused 2:float:smooth_fused 2:double:smooth_fused 3:float:smooth_fused 3:double:smooth_fused \
            4:float:smooth_fused 4:double:smooth_fused 5:float:smooth_fused 5:double:smooth_fused 6:float:smooth_fused 6:double:smooth_boundary \
            7:float:smooth_fused 7:double:smooth_boundary 8:float:smooth_boundary 8:double:smooth_boundary; do
  IFS=: read k p op <<< "$spec"
  run="$B/bench/bench_kernels --dim 3 --kmin $k --kmax $k --precision $p --groups 1 --reps 1 --dofs 3e7 --csv /dev/null"
  # the smoother: color 0 after the warm-up step (8 launches); MatMult: the launch after the warm-up
  $NCU --metrics $M --csv -k regex:patch --launch-skip 8 -c 1 $run --ops $op > $O/k${k}_${p}_$op.csv 2> $O/k${k}_${p}_$op.err
  $NCU --metrics $M --csv -k regex:laplace --launch-skip 1 -c 1 $run --ops laplace_apply > $O/k${k}_${p}_laplace_apply.csv 2> $O/k${k}_${p}_laplace_apply.err
done
