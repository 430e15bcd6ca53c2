#!/usr/bin/env bash
# Call C (fifty-third session): the GPU glue checks against a debug CUDA PETSc
# (scripts/build_petsc_cuda.sh with PETSC_DEBUGGING=1, built here; its library stripped of
# debug symbols for the carry): vpatch's glue compiled against it, its CUDA kernels the same
# objects as build-cuda's (they include no PETSc header). Debug PETSc checks the function stack,
# vector locks (also of device arrays), collective arguments; mg_guarded then compares depths.
set -u
tar -xJf .carry/s53/dbg/petsc-debug.tar.xz -C /opt
tar -xJf .carry/s53/dbg/bins.tar.xz
export PETSC_DIR=/opt/petsc-cuda-deb12-debug PETSC_ARCH= OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PETSC_OPTIONS="-use_gpu_aware_mpi 0" PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$PWD/build-cuda-dbg:/usr/local/cuda/lib64:/opt/petsc-cuda-deb12-debug/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
echo "petscstack in the PETSc library (debug build): $(nm -D /opt/petsc-cuda-deb12-debug/lib/libpetsc.so | grep -c " petscstack$")"; ldd build-cuda-dbg/examples/poisson | grep petsc
build-cuda-dbg/tests/multigrid/mg_guarded | tail -3
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 480 tests/gpu/run_checks.sh build-cuda-dbg $OUT/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep '^FAIL' $OUT/checks.txt; tail -1 $OUT/checks.txt
for f in $OUT/checks/*.log; do grep -l "Invalid stack\|locked for\|wrong state\|PETSC ERROR" $f; done 2>/dev/null | head
