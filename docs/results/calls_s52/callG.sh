#!/usr/bin/env bash
# Call G (fifty-second session): the Richardson tests that only need a norm store no residual
# (double PCVPATCHMG from y, PCVPATCH's sweeps; laplace_residual_sum_squares with r null), and
# the mixed path no longer converts its last float residual into w. Kernel tests of the norm
# alone; Table 7 Richardson k = 1, 3, new / old (call F's library, ac3a8fe + 98a0bc5) alternating,
# fastest of 5; the GPU glue checks.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
mkdir -p /tmp/old && tar -xJf .carry/s52/f/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
tar -xJf .carry/s52/new/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
K=build-cuda/tests/gpu/test_kernels_cuda
echo "## kernel tests"
for a in "--dim 3 --degree 1" "--dim 3 --degree 2" "--dim 3 --degree 3" "--dim 3 --degree 4" "--dim 2 --quick"; do
  s=$(date +%s); timeout 100 $K $a > /tmp/k.log 2>&1; echo "$a rc=$? $(tail -1 /tmp/k.log) ($(( $(date +%s) - s )) s) norm alone: $(grep -c 'PASS.*norm alone' /tmp/k.log) pass $(grep -c 'FAIL.*norm alone' /tmp/k.log) fail"; grep FAIL /tmp/k.log | head -5
done
P=build-cuda/examples/poisson
lib() { if [ $1 = new ]; then echo $PWD/build-cuda; else echo /tmp/old; fi; }
echo "## Table 7 with Richardson (-fmg -repeat 5), new / old alternating"
for cfg in "1 512" "3 256"; do set -- $cfg
for prec in double single; do for l in new old new old; do
  echo "k=$1 $prec $l $(LD_LIBRARY_PATH=$(lib $l):$LD_LIBRARY_PATH $P -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 5 -ksp_type richardson -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done; done
echo "## RUN_CHECKS_KERNELS=0 tests/gpu/run_checks.sh build-cuda /tmp/checks"
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 220 tests/gpu/run_checks.sh build-cuda /tmp/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep '^FAIL' $OUT/checks.txt; grep -i 'richardson\|mg_api' $OUT/checks.txt; tail -1 $OUT/checks.txt
