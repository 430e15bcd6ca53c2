#!/usr/bin/env bash
# Call A (fifty-first session): main's library (92c15d6). Table 7 with Richardson (the paper's
# Algorithm 2.2), fastest of 5, and with FGMRES, fastest of 3; then the GPU acceptance checks
# without the kernel tests (RUN_CHECKS_KERNELS=0; the kernels are unchanged since call H of the
# fiftieth session, which ran them).
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s51/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
echo "## Table 7, Richardson (TABLE7_OPTS=\"-ksp_type richardson\" bench/table7.sh build-cuda \$OUT/t7r 5 fmg skip)"
s=$(date +%s); TABLE7_OPTS="-ksp_type richardson" bench/table7.sh build-cuda $OUT/t7r 5 fmg skip; echo "($(( $(date +%s) - s )) s)"
echo "## Table 7, FGMRES (bench/table7.sh build-cuda \$OUT/t7f 3 fmg skip)"
s=$(date +%s); bench/table7.sh build-cuda $OUT/t7f 3 fmg skip; echo "($(( $(date +%s) - s )) s)"
echo "## RUN_CHECKS_KERNELS=0 tests/gpu/run_checks.sh build-cuda /tmp/checks"
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 380 tests/gpu/run_checks.sh build-cuda /tmp/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep -c '^PASS' $OUT/checks.txt; grep '^FAIL' $OUT/checks.txt; tail -2 $OUT/checks.txt
rm -rf $OUT/t7r $OUT/t7f
