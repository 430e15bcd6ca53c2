#!/usr/bin/env bash
# Call B (fifty-first session): the double Richardson test's norm in its residual's pass
# (OperatorResidualNorm; laplace_residual_sum_squares<double>). Kernel tests of the new double
# sums, the double Richardson A/B against main's library (92c15d6), Table 7 with Richardson
# (fastest of 5), the GPU glue checks.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
mkdir -p /tmp/old && tar -xJf .carry/s51/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
tar -xJf .carry/s51/new/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
K=build-cuda/tests/gpu/test_kernels_cuda
echo "## kernel tests"
for a in "--dim 3 --degree 1" "--dim 3 --degree 2" "--dim 3 --degree 3" "--dim 3 --degree 4" "--dim 2 --quick"; do
  s=$(date +%s); timeout 200 $K $a > /tmp/k.log 2>&1; echo "$a rc=$? $(tail -1 /tmp/k.log) ($(( $(date +%s) - s )) s) double sums: $(grep -c 'PASS.*sum_squares (double)' /tmp/k.log) pass $(grep -c 'FAIL.*sum_squares (double)' /tmp/k.log) fail"; grep FAIL /tmp/k.log | head -5
done
P=build-cuda/examples/poisson
echo "## Richardson A/B, new / old alternating, fastest of 3 (-fmg -repeat 3)"
for cfg in "1 512" "3 256"; do set -- $cfg
for prec in double single; do for lib in new old new old; do
  if [ $lib = new ]; then L=$PWD/build-cuda; else L=/tmp/old; fi
  echo "k=$1 $prec $lib $(LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH $P -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 3 -ksp_type richardson -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done; done
echo "## Table 7, Richardson (TABLE7_OPTS=\"-ksp_type richardson\" bench/table7.sh build-cuda \$OUT/t7r 5 fmg skip)"
s=$(date +%s); TABLE7_OPTS="-ksp_type richardson" bench/table7.sh build-cuda $OUT/t7r 5 fmg skip; echo "($(( $(date +%s) - s )) s)"
echo "## RUN_CHECKS_KERNELS=0 tests/gpu/run_checks.sh build-cuda /tmp/checks"
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 200 tests/gpu/run_checks.sh build-cuda /tmp/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep -c '^PASS' $OUT/checks.txt; grep '^FAIL' $OUT/checks.txt; tail -1 $OUT/checks.txt
rm -rf $OUT/t7r
