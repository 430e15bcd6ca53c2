#!/usr/bin/env bash
# Builds bench/bench_kernels (PETSc-free) on top of the kernel objects of tests/gpu/build.sh.
# Outputs go to $BUILD_DIR (default <repo>/build-cuda). Options: --run [args] runs it after
# building (e.g. bench/build.sh --run --quick --csv bench.csv). Environment as in
# tests/gpu/build.sh (NVCC, CUDA_ARCH, JOBS, NVCCFLAGS).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-cuda}"
export BUILD_DIR
"$ROOT/tests/gpu/build.sh" --objects-only
if [[ -z "${NVCC:-}" ]]; then
  if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc; else NVCC=/usr/local/cuda/bin/nvcc; fi
fi
ARCH="${CUDA_ARCH:-sm_90}"
echo "linking $BUILD_DIR/bench_kernels"
"$NVCC" -std=c++17 -O3 "-arch=$ARCH" -I "$ROOT/src" ${NVCCFLAGS:-} -o "$BUILD_DIR/bench_kernels" "$ROOT/bench/bench_kernels.cu" \
  "$BUILD_DIR"/obj/*.o
if [[ "${1:-}" == "--run" ]]; then
  shift
  "$BUILD_DIR/bench_kernels" "$@"
fi
