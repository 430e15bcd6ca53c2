#!/usr/bin/env bash
# Quick start: install what is missing, build with CMake, and solve a 3D Poisson problem
# with Q3 elements by FGMRES + vertex-patch multigrid. Extra arguments go to the example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target poisson
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpiexec --oversubscribe -n 2 build/examples/poisson -dim 3 -degree 3 -refine 4 \
  -pc_type mg -pc_mg_levels 4 -mg_levels_pc_type vpatch -ksp_monitor_true_residual "$@"
