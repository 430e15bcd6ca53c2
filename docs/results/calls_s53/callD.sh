#!/usr/bin/env bash
# Call D (fifty-third session, two H200s of one host): the multi-GPU checks against the debug
# CUDA PETSc of call C (one rank per GPU, 2 ranks per GPU; the ghost exchanges through CUDA IPC
# between the GPUs), and mg_api on device vectors on 2 ranks.
set -u
tar -xJf .carry/s53/dbg/petsc-debug.tar.xz -C /opt
tar -xJf .carry/s53/dbg/bins.tar.xz
export PETSC_DIR=/opt/petsc-cuda-deb12-debug PETSC_ARCH= OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PETSC_OPTIONS="-use_gpu_aware_mpi 0" PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PWD/build-cuda-dbg:/usr/local/cuda/lib64:/opt/petsc-cuda-deb12-debug/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
s=$(date +%s); timeout 400 tests/gpu/run_multi_gpu.sh build-cuda-dbg $OUT/multi > $OUT/multi.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep '^FAIL' $OUT/multi.txt; tail -1 $OUT/multi.txt
timeout 120 mpiexec --oversubscribe -n 2 build-cuda-dbg/tests/multigrid/mg_api -dm_vec_type cuda > $OUT/mg_api_2gpu.txt 2>&1; echo "mg_api 2 ranks: rc=$? $(tail -1 $OUT/mg_api_2gpu.txt)"
grep -l "Invalid stack\|locked for" $OUT/multi/*.log $OUT/*.txt 2>/dev/null | head
