#!/usr/bin/env bash
# Call B (fifty-third session): the session's library (MatSetDM, StackMark, the example's norm
# probe): the GPU glue checks, the guarded-callback test, and Table 7 with Richardson
# (Algorithm 2.2, fastest of 5) and FGMRES(5) (fastest of 3).
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s53/new/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
build-cuda/tests/multigrid/mg_guarded | tail -2
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 300 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep '^FAIL' $OUT/checks.txt; tail -1 $OUT/checks.txt
echo "== Table 7, Richardson (Algorithm 2.2), fastest of 5"
TABLE7_OPTS="-ksp_type richardson" timeout 200 bench/table7.sh build-cuda $OUT/t7r 5 fmg skip
echo "== Table 7, FGMRES(5), fastest of 3"
timeout 200 bench/table7.sh build-cuda $OUT/t7f 3 fmg skip
