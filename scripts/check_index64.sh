#!/usr/bin/env bash
# The plugin against a PETSc with 64-bit indices (Debian's petsc64-dev, installed if missing):
# configure, build and run the test suite but its 'long' label in build-index64. Extra
# arguments go to ctest. Exit status 77 (and nothing built) where petsc64-dev cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
petsc=/usr/lib/petscdir/petsc64-real
scripts/install_deps.sh petsc64-dev >/dev/null 2>&1 || { echo "petsc64-dev could not be installed" >&2; exit 77; }
grep -q '^#define PETSC_USE_64BIT_INDICES 1' "$petsc/include/petscconf.h" || { echo "$petsc: not a PETSc with 64-bit indices" >&2; exit 1; }
PETSC_DIR=$petsc PETSC_ARCH= cmake -S . -B build-index64 -DCMAKE_BUILD_TYPE=Release -DVPATCH_CUDA=OFF >/dev/null
cmake --build build-index64 -j"$(nproc)" >/dev/null
cd build-index64 && ctest --output-on-failure -LE long "$@"
