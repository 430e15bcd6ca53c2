#!/usr/bin/env bash
# Call E (fifty-third session): the final library (the operator's products with MATSHELLs an
# error of its own): the GPU glue checks, -pc_mg_galerkin on device vectors.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s53/final/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
build-cuda/examples/poisson -dim 3 -degree 2 -cells 8 -dm_vec_type cuda -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -pc_mg_galerkin 2>&1 | grep "PETSC ERROR" | sed -n 2,3p
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 300 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep '^FAIL' $OUT/checks.txt; tail -1 $OUT/checks.txt
