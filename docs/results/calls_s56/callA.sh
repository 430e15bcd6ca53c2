#!/usr/bin/env bash
# Call A (fifty-sixth session): the local solve with two of its contractions in registers
# (tuning.hpp fused_solve). Kernel tests of every 3D degree against the CPU path, the
# sanitizers on 3D k = 2, 3, 7, device solves against host solves, then the 3D smoothers'
# A/B against the same library built with -DVPATCH_FUSED_SOLVE=0 (build-tune/six).
set -u
source docs/results/calls_s56/prelude.sh
K=build-cuda/tests/gpu/test_kernels_cuda
s=$(date +%s); timeout 240 $K --dim 3 > $OUT/kernels3d.txt 2>&1; echo "kernels --dim 3 rc=$? ($(( $(date +%s) - s )) s) $(tail -1 $OUT/kernels3d.txt)"; grep FAIL $OUT/kernels3d.txt | head -5
for d in 2 3 7; do for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool $K --quick --dim 3 --degree $d > $OUT/san_${tool}_$d.txt 2>&1; echo "$tool k=$d rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san_${tool}_$d.txt | tail -1)"
done; done
P=build-cuda/examples/poisson
for run in "-dim 3 -degree 3 -cells 8 -pc_type mg -mg_levels_pc_type vpatch" \
           "-dim 3 -degree 7 -cells 4 -pc_type mg -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_kernel global" \
           "-dim 3 -degree 4 -cells 8 -pc_type mg -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_kernel boundary" \
           "-dim 3 -degree 2 -cells 16 -pc_type vpatchmg -pc_vpatchmg_precision single -fmg" \
           "-dim 3 -degree 5 -cells 4 -pc_type vpatchmg -ksp_type cg -pc_vpatch_sweep symmetric"; do
  echo "$run"
  echo "  cpu $($P $run 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*' | tr '\n' ' ')"
  echo "  gpu $($P $run -dm_vec_type cuda 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|device=[^ ]*' | tr '\n' ' ')"
done
B=build-cuda/bench/bench_kernels
for round in 1 2; do for lib in new six; do
  if [ $lib = new ]; then L=$PWD/build-cuda; else L=$PWD/build-tune/six; fi
  LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH timeout 150 $B --dim 3 --kmin 2 --kmax 8 --ops smooth_fused,smooth_boundary,smooth_fused_zero,smooth_global --csv $OUT/ab_${lib}_$round.csv > /dev/null 2>&1; echo "bench $lib round $round rc=$?"
done; done
python3 docs/results/calls_s56/ab_table.py "$OUT" six new
