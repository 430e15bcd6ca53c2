#!/usr/bin/env bash
# Call C (fifty-first session): the final library's kernels (0334717; later commits change
# comments and scripts only): the whole kernel test and the sanitizer runs of
# tests/gpu/run_checks.sh's kernel part (test_kernels_cuda --quick under memcheck and
# racecheck), and the script's new memchecks of the double Richardson tests.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s51/new/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
K=build-cuda/tests/gpu/test_kernels_cuda; P=build-cuda/examples/poisson
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
echo "## test_kernels_cuda (all cases)"
s=$(date +%s); timeout 250 $K > $OUT/kernels.log 2>&1; echo "rc=$? $(tail -1 $OUT/kernels.log) ($(( $(date +%s) - s )) s); double sums: $(grep -c 'PASS.*sum_squares (double)' $OUT/kernels.log) pass $(grep -c 'FAIL.*sum_squares (double)' $OUT/kernels.log) fail"
grep FAIL $OUT/kernels.log | head -5
echo "## compute-sanitizer of test_kernels_cuda --quick"
for tool in memcheck racecheck; do
  s=$(date +%s); timeout 120 $CS --tool $tool --error-exitcode 9 $K --quick > /tmp/$tool.log 2>&1; echo "$tool rc=$? ($(( $(date +%s) - s )) s) $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' /tmp/$tool.log) | $(grep -v '^=' /tmp/$tool.log | tail -1)"
done
echo "## the new memchecks (run_checks.sh)"
$CS --tool memcheck --error-exitcode 9 $P -dim 3 -degree 3 -cells 4 -pc_type vpatchmg -pc_vpatchmg_precision double -ksp_type richardson -dm_vec_type cuda > /tmp/m1.log 2>&1; echo "double richardson rc=$? $(grep -m1 'ERROR SUMMARY' /tmp/m1.log) $(grep -o 'iterations=[0-9]* rel_residual=[^ ]*' /tmp/m1.log)"
$CS --tool memcheck --error-exitcode 9 $P -dim 3 -degree 1 -cells 8 -pc_type vpatch -ksp_type richardson -ksp_max_it 20 -dm_vec_type cuda > /tmp/m2.log 2>&1; echo "vpatch richardson rc=$? $(grep -m1 'ERROR SUMMARY' /tmp/m2.log) $(grep -o 'iterations=[0-9]* rel_residual=[^ ]*' /tmp/m2.log)"
