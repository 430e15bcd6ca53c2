#!/usr/bin/env bash
# Compiles the CUDA kernels with nvcc and links the whole library and the example against
# the Debian 12 CUDA PETSc 3.22 (compile and link only: no GPU needed), with CMake and
# with makefile.petsc. Usage: scripts/check_cuda_build.sh [path to the archive]
set -euo pipefail
cd "$(dirname "$0")/.."
archive=${1:-../shared/petsc-cuda/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz}
petsc=/opt/petsc-cuda-deb12
if [ ! -f "$petsc/lib/pkgconfig/PETSc.pc" ]; then
  tar -xJf "$archive" -C /opt
fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
missing=()
for p in libopenmpi-dev openmpi-bin liblapack-dev libblas-dev cmake g++ pkg-config; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"; fi
export PATH=/usr/local/cuda/bin:$PATH
PETSC_DIR=$petsc PETSC_ARCH= cmake -S . -B build-cuda -DCMAKE_BUILD_TYPE=Release -DVPATCH_CUDA=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build build-cuda -j"$(nproc)"
n=$(nm -DC --defined-only build-cuda/libvpatch.so | grep -c "vpatch::cuda::patch_correct" || true)
[ "$n" -gt 0 ] || { echo "CUDA kernels missing from libvpatch.so"; exit 1; }
make -f makefile.petsc -j"$(nproc)" PETSC_DIR=$petsc PETSC_ARCH= OUT=build-petsc-cuda >/dev/null
n=$(nm -DC --defined-only build-petsc-cuda/libvpatch.so | grep -c "vpatch::cuda::patch_correct" || true)
[ "$n" -gt 0 ] || { echo "CUDA kernels missing from build-petsc-cuda/libvpatch.so"; exit 1; }
echo "CUDA build: OK (CMake: build-cuda/, makefile.petsc: build-petsc-cuda/)"
