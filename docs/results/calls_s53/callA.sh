#!/usr/bin/env bash
# Call A (fifty-third session): the GPU glue checks on main (e7585c7), including the two checks
# that two solves record full multigrid once (dc1319a), which had not run on a GPU.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s53/main/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 300 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep -c '^PASS' $OUT/checks.txt; grep '^FAIL' $OUT/checks.txt; grep -i 'graph\|record' $OUT/checks.txt; tail -1 $OUT/checks.txt
