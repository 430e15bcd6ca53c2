#!/usr/bin/env bash
# The plugin against a PETSc with 64-bit indices and debugging (Debian's petsc64-dev and the
# debug build of libpetsc64-real3.18-dbg, installed if missing): configure, build and run the
# test suite but its 'long' label in build-index64-debug. The debug PETSc checks what an optimized
# one takes on trust: the function stack's push and pop (PetscFunctionBegin/Return, also
# where an exception unwinds frames), DMCreateMatrix's matrix DM, read-only locks of vectors,
# collective arguments. Extra arguments go to ctest. Exit status 77 (and nothing built) where
# the packages cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
petsc=/usr/lib/petscdir/petsc64-3.18/x86_64-linux-gnu-real-debug
scripts/install_deps.sh petsc64-dev libpetsc64-real3.18-dbg >/dev/null 2>&1 || { echo "petsc64-dev or libpetsc64-real3.18-dbg could not be installed" >&2; exit 77; }
for def in PETSC_USE_64BIT_INDICES PETSC_USE_DEBUG; do
  grep -q "^#define $def 1" "$petsc/include/petscconf.h" || { echo "$petsc: $def is not set" >&2; exit 1; }
done
PETSC_DIR=$petsc PETSC_ARCH= cmake -S . -B build-index64-debug -DCMAKE_BUILD_TYPE=Release -DVPATCH_CUDA=OFF >/dev/null
cmake --build build-index64-debug -j"$(nproc)" >/dev/null
cd build-index64-debug && ctest --output-on-failure -j"$(nproc)" -LE long "$@"
