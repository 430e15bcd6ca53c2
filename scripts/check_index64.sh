#!/usr/bin/env bash
# The plugin against a PETSc with 64-bit indices (Debian's petsc64-dev, installed if missing):
# configure, build and run the test suite but its 'long' label in build-index64. Extra
# arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
petsc=/usr/lib/petscdir/petsc64-real
if [ ! -f "$petsc/include/petscconf.h" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q petsc64-dev >/dev/null || {
    $SUDO apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q petsc64-dev >/dev/null
  }
fi
grep -q '^#define PETSC_USE_64BIT_INDICES 1' "$petsc/include/petscconf.h" || { echo "$petsc: not a PETSc with 64-bit indices" >&2; exit 1; }
PETSC_DIR=$petsc PETSC_ARCH= cmake -S . -B build-index64 -DCMAKE_BUILD_TYPE=Release -DVPATCH_CUDA=OFF >/dev/null
cmake --build build-index64 -j"$(nproc)" >/dev/null
cd build-index64 && ctest --output-on-failure -LE long "$@"
