#!/usr/bin/env bash
# Builds the CUDA kernels of src/cuda (one object per .cu, in parallel) and the standalone
# GPU test tests/gpu/test_kernels_cuda (no PETSc). Run from anywhere; outputs go to
# $BUILD_DIR (default: <repo>/build-cuda). Options:
#   --objects-only   only the kernel objects (used by bench/build.sh)
#   --run [args]     run the test after building (args are passed on, e.g. --quick)
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc),
#              CUDA_ARCH (default sm_90), JOBS (default: nproc), NVCCFLAGS (extra flags).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-cuda}"
if [[ -z "${NVCC:-}" ]]; then
  if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc; else NVCC=/usr/local/cuda/bin/nvcc; fi
fi
ARCH="${CUDA_ARCH:-sm_90}"
JOBS="${JOBS:-$(nproc)}"
FLAGS=(-std=c++17 -O3 "-arch=$ARCH" -I "$ROOT/src" ${NVCCFLAGS:-})
objects_only=0; run=0; run_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --objects-only) objects_only=1 ;;
    --run) run=1; shift; run_args=("$@"); break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$BUILD_DIR/obj"
export NVCC BUILD_DIR ROOT
# Rebuild an object when its source or any src/cuda or src/core header is newer.
newest_header=$(ls -t "$ROOT"/src/cuda/*.cuh "$ROOT"/src/cuda/*.hpp "$ROOT"/src/core/*.hpp "$ROOT"/src/core/cpu/*.hpp | head -1)
todo=()
for src in "$ROOT"/src/cuda/*.cu; do
  obj="$BUILD_DIR/obj/$(basename "${src%.cu}").o"
  if [[ ! -f "$obj" || "$src" -nt "$obj" || "$newest_header" -nt "$obj" ]]; then todo+=("$src"); fi
done
if [[ ${#todo[@]} -gt 0 ]]; then
  echo "compiling ${#todo[@]} kernel file(s) with $NVCC ${FLAGS[*]} (jobs: $JOBS)"
  printf '%s\n' "${todo[@]}" | xargs -P "$JOBS" -I{} sh -c \
    'echo "  $(basename {})"; "$0" "$@" -c {} -o "$BUILD_DIR/obj/$(basename {} .cu).o"' "$NVCC" "${FLAGS[@]}"
fi
[[ $objects_only -eq 1 ]] && exit 0
echo "linking $BUILD_DIR/test_kernels_cuda"
"$NVCC" "${FLAGS[@]}" -o "$BUILD_DIR/test_kernels_cuda" "$ROOT/tests/gpu/test_kernels_cuda.cu" "$BUILD_DIR"/obj/*.o
if [[ $run -eq 1 ]]; then
  "$BUILD_DIR/test_kernels_cuda" "${run_args[@]}"
fi
