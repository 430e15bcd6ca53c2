#!/usr/bin/env bash
# Builds a variant libvpatch.so for launch-shape experiments: the smoother and operator
# objects (patch_smoother{,_2d,_3d_lo,_3d_hi}.cu, laplace.cu, transfer.cu) recompiled with extra defines (the overrides in
# src/cuda/tuning.hpp), linked with build-cuda's other objects into
# build-tune/<name>/libvpatch.so (git-ignored), plus ptxas -v logs. On the GPU machine run
# the unchanged build-cuda binaries against it:
#   LD_LIBRARY_PATH=$PWD/build-tune/<name>:$PETSC_DIR/lib:$LD_LIBRARY_PATH build-cuda/bench/bench_kernels ...
# Usage: bench/tune_variant_lib.sh NAME [-DVPATCH_...=V ...]   (after cmake --build build-cuda)
# e.g.   bench/tune_variant_lib.sh compact -DVPATCH_COMPACT_THREADS=1
#        TUNE_FILES=patch_smoother_3d_lo bench/tune_variant_lib.sh k3p5 -DVPATCH_COMPACT_THREADS=2 -DVPATCH_PPB_3D_K3=5
#        bench/tune_variant_lib.sh mb8 -DVPATCH_COMPACT_THREADS=1 -DVPATCH_PATCH_MIN_BLOCKS=8
# Environment: NVCC, PETSC_DIR (/opt/petsc-cuda-deb12), CUDA_ARCH (90).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
name=${1:?usage: $0 NAME [defines]}; shift
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
PETSC_DIR="${PETSC_DIR:-/opt/petsc-cuda-deb12}"
ARCH="${CUDA_ARCH:-90}"
B="$ROOT/build-cuda/CMakeFiles/vpatch.dir/src"
[[ -d "$B" ]] || { echo "build build-cuda first" >&2; exit 1; }
O="$ROOT/build-tune/$name/obj"
rm -rf "$O" # every object in it is linked: none may be left from an earlier variant of this name
mkdir -p "$O"
FLAGS=(-DVPATCH_HAVE_CUDA=1 -I "$ROOT/include" -I "$ROOT/src" -isystem "$PETSC_DIR/include" -O3 -DNDEBUG
       "--generate-code=arch=compute_$ARCH,code=[compute_$ARCH,sm_$ARCH]" -Xcompiler=-fPIC --expt-relaxed-constexpr -std=c++17 "$@")
# TUNE_FILES: the objects to recompile (default all six); the others are copied from build-cuda.
all="patch_smoother patch_smoother_2d patch_smoother_3d_lo patch_smoother_3d_hi laplace transfer"
files=" ${TUNE_FILES:-$all} "
for f in $all; do
  if [[ "$files" == *" $f "* ]]; then
    "$NVCC" "${FLAGS[@]}" -Xptxas -v -c "$ROOT/src/cuda/$f.cu" -o "$O/$f.o" 2> "$O/$f.ptxas.txt"
  else
    cp "$B/cuda/$f.cu.o" "$O/$f.o"
  fi
done
others=$(ls "$B"/petsc/*.o "$B"/cuda/*.o | grep -v "/patch_smoother\.\|/patch_smoother_2d\|/patch_smoother_3d\|/laplace\|/transfer")
MPI_LIBS=$(mpicxx --showme:link 2>/dev/null || echo "-lmpi_cxx -lmpi")
CUDA_LIB="$(dirname "$(dirname "$NVCC")")/lib64"
c++ -shared -Wl,-soname,libvpatch.so -o "$ROOT/build-tune/$name/libvpatch.so" $others "$O"/*.o \
  -L"$CUDA_LIB" -lcudart -L"$PETSC_DIR/lib" -Wl,-rpath,"$PETSC_DIR/lib" -lpetsc $MPI_LIBS -lgomp
echo "build-tune/$name/libvpatch.so ($*)"
