#!/usr/bin/env bash
# The whole test suite: install what is missing, build library, examples and tests with
# CMake, run ctest with one job per core (the tests' PROCESSORS properties keep MPI tests
# from oversubscribing). Extra arguments go to ctest (a later -j wins).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
cd build && ctest --output-on-failure -j"$(nproc)" "$@"
