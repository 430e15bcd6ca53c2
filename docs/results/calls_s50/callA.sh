#!/usr/bin/env bash
# Call A: the mixed Richardson step's correction in the next residual's pass (gather levels).
# Kernel tests (3D k = 1, 2, 2D quick), memcheck/racecheck of the corrected kernel, the GPU
# solver checks of the Richardson paths, Table 7 k = 1 (and k = 3) A/B against HEAD's library.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt
tar -xJf .carry/s50/bins.tar.xz
mkdir -p /tmp/old && tar -xJf .carry/s49/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
K=build-cuda/tests/gpu/test_kernels_cuda
echo "## kernel tests"
for a in "--dim 3 --degree 1" "--dim 3 --degree 2" "--dim 2 --quick"; do
  timeout 300 $K $a > $OUT/k.log 2>&1; echo "$a rc=$? $(tail -1 $OUT/k.log) corrected: $(grep -c 'PASS.*corrected' $OUT/k.log) pass $(grep -c 'FAIL.*corrected' $OUT/k.log) fail"
  grep "FAIL" $OUT/k.log | head -5; cat $OUT/k.log >> $OUT/kernels.log
done
grep "corrected" $OUT/kernels.log | head -8
echo "## sanitizers, 3D k = 1 quick"
for t in memcheck racecheck; do timeout 200 compute-sanitizer --tool $t $K --quick --dim 3 --degree 1 > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/$t.log | head -1) $(tail -1 $OUT/$t.log)"; done
echo "## Table 7 A/B (new / old alternating, fastest of 3)"
for cfg in "1 512" "3 256"; do set -- $cfg; for ksp in richardson; do for prec in single double; do for lib in new old new old; do
  if [ $lib = new ]; then L=$PWD/build-cuda; else L=/tmp/old; fi
  echo "k=$1 $ksp $prec $lib $(LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH build-cuda/examples/poisson -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 3 -ksp_gmres_restart 5 -ksp_type $ksp -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done; done; done
echo "## Richardson solves: device against host (run_checks.sh's cmp_run lines)"
P=build-cuda/examples/poisson
for run in "-dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson" \
           "-dim 3 -degree 2 -refine 4 -pc_type vpatchmg -ksp_type richardson -fmg" \
           "-dim 2 -degree 10 -refine 4 -pc_type vpatchmg -ksp_type richardson" \
           "-dim 2 -degree 2 -refine 6 -pc_type vpatchmg -ksp_type richardson -fmg" \
           "-dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson -ksp_norm_type none -ksp_max_it 7" \
           "-dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson -ksp_norm_type none -ksp_max_it 8" \
           "-dim 3 -degree 3 -refine 3 -pc_type vpatchmg -ksp_type richardson -fmg"; do
  echo "$run"
  echo "  cpu $($P $run 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|reason=[^ ]*' | tr '\n' ' ')"
  echo "  gpu $($P $run -dm_vec_type cuda 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|device=[^ ]*\|reason=[^ ]*' | tr '\n' ' ')"
done
echo "## 2 ranks, mixed Richardson 3D Q1 (one-pass path off: distributed)"
for n in 1 2; do echo "n=$n $(mpiexec --oversubscribe -n $n $P -dim 3 -degree 1 -cells 32 -pc_type vpatchmg -fmg -ksp_type richardson -dm_vec_type cuda | grep '^summary:' | grep -o 'iterations=[0-9]*\|l2_error=[^ ]*')"; done
