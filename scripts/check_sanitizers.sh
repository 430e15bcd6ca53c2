#!/usr/bin/env bash
# The plugin, its examples and tests built with AddressSanitizer and UndefinedBehaviorSanitizer
# (GCC, CPU only) against Debian's debug PETSc 3.18 in build-sanitizers, and tests run under
# them: an invalid memory access, a leak outside OpenMPI's (scripts/lsan_openmpi.supp; PETSc's
# own allocations are -malloc_dump's to check) or undefined behaviour fails the run, also in a
# test that expects its program to fail (the log of every test is searched for the
# sanitizers' reports). Arguments go to ctest; without any, the quick set CI runs (about 3
# minutes on 2 cores with the build): the C API's checks (error paths, retries) on 1 and 2
# ranks, the exception guards, the CPU kernels and the sweep against its reference on 1, 2 and
# 4 ranks. `-E packaging` runs all but the packaging test (which links an uninstrumented
# program against the instrumented library): about 27 minutes on 2 cores. Exit status 77 (and
# nothing built) where the packages cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh petsc-dev libpetsc-real3.18-dbg >/dev/null 2>&1 || { echo "petsc-dev or libpetsc-real3.18-dbg could not be installed" >&2; exit 77; }
petsc=/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real-debug
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
PETSC_DIR=$petsc PETSC_ARCH= cmake -S . -B build-sanitizers -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVPATCH_CUDA=OFF \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build-sanitizers -j"$(nproc)" >/dev/null
# OpenMPI keeps its components loaded (their frames then resolve for the suppressions); the
# slow unwinder follows frames through libraries built without frame pointers
export OMPI_MCA_mca_base_component_disable_dlclose=1
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan_openmpi.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
[ $# -gt 0 ] || set -- -R '^(kernels\.|multigrid\.(api|guarded|sweep_reference))'
cd build-sanitizers
rc=0; ctest -j"$(nproc)" --output-on-failure "$@" || rc=$?
reports=$(grep -E -c 'ERROR: (Address|Leak)Sanitizer|runtime error:' Testing/Temporary/LastTest.log || true)
if [ "$reports" -gt 0 ]; then
  grep -E -B2 -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:' Testing/Temporary/LastTest.log | head -80
  echo "sanitizers: $reports report(s) in the tests' output"; exit 1
fi
echo "sanitizers: no report in the tests' output"
exit $rc
