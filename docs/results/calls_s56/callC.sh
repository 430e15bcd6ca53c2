#!/usr/bin/env bash
# Call C (fifty-sixth session): the given residual's column through registers when the solve
# runs in registers (Global, and the first color from zero): kernel tests of every 3D degree,
# the sanitizers on 3D k = 3, 7, device solves against host solves, and the 3D smoothers'
# A/B against call A's library (build-tune/prev, 109b506) and the six-stage build (build-tune/six).
set -u
source docs/results/calls_s56/prelude.sh
tar -xJf .carry/s56/tune.tar.xz
K=build-cuda/tests/gpu/test_kernels_cuda
s=$(date +%s); timeout 240 $K --dim 3 > $OUT/kernels3d.txt 2>&1; echo "kernels --dim 3 rc=$? ($(( $(date +%s) - s )) s) $(tail -1 $OUT/kernels3d.txt)"; grep FAIL $OUT/kernels3d.txt | head -5
for d in 3 7; do for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool $K --quick --dim 3 --degree $d > /tmp/san_${tool}_$d.txt 2>&1; echo "$tool k=$d rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san_${tool}_$d.txt | tail -1)"
done; done
P=build-cuda/examples/poisson
for run in "-dim 3 -degree 3 -cells 8 -pc_type mg -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_kernel global" \
           "-dim 3 -degree 6 -cells 4 -pc_type mg -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_kernel global" \
           "-dim 3 -degree 4 -cells 8 -pc_type vpatchmg -pc_vpatchmg_precision single" \
           "-dim 3 -degree 3 -cells 8 -pc_type mg -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_local_solver dense"; do
  echo "$run"
  echo "  cpu $($P $run 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*' | tr '\n' ' ')"
  echo "  gpu $($P $run -dm_vec_type cuda 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|device=[^ ]*' | tr '\n' ' ')"
done
B=build-cuda/bench/bench_kernels
for round in 1 2; do for lib in new prev six; do
  if [ $lib = new ]; then L=$PWD/build-cuda; else L=$PWD/build-tune/$lib; fi
  LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH timeout 120 $B --dim 3 --kmin 2 --kmax 8 --ops smooth_fused,smooth_fused_zero,smooth_global --csv $OUT/ab_${lib}_$round.csv > /dev/null 2>&1; echo "bench $lib round $round rc=$?"
done; done
python3 docs/results/calls_s56/ab_table.py "$OUT" six prev new
