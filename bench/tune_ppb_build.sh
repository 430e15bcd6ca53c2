#!/usr/bin/env bash
# Builds bench_kernels variants with overridden 3D k = 3 / k = 4 patches per block
# (src/cuda/tuning.hpp, VPATCH_PPB_3D_K3 / _K4) into build-tune/<variant>/bench_kernels
# (git-ignored); two variants keep the table and add a __launch_bounds__ min-blocks hint. Only patch_smoother_3d_lo.cu (3D k = 1..5) depends on the override; the
# other kernel objects are built once (default flags) and shared. Objects are deleted at
# the end, only the gzipped binaries (bench_kernels.gz) and ptxas -v logs stay. Run bench/tune_ppb.sh on the GPU machine afterwards.
# Environment: NVCC, CUDA_ARCH (sm_90), JOBS.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUTDIR="$ROOT/build-tune"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
ARCH="${CUDA_ARCH:-sm_90}"
JOBS="${JOBS:-$(nproc)}"
FLAGS=(-std=c++17 -O3 "-arch=$ARCH" -I "$ROOT/src")
# name:K3:K4:MINBLOCKS (empty = default; base = the default table 4 / 2, no min-blocks hint)
VARIANTS=(base::: k3p1_k4p1:1:1: k3p2_k4p4:2:4: k3p8:8:: mb4:::4 mb6:::6)
OBJ="$OUTDIR/obj"
mkdir -p "$OBJ"
export NVCC OBJ
shared=()
for src in "$ROOT"/src/cuda/*.cu; do
  [[ "$(basename "$src")" == patch_smoother_3d_lo.cu ]] || shared+=("$src")
done
printf '%s\n' "${shared[@]}" | xargs -P "$JOBS" -I{} sh -c \
  'echo "  $(basename {})"; "$0" "$@" -c {} -o "$OBJ/$(basename {} .cu).o"' "$NVCC" "${FLAGS[@]}"
"$NVCC" "${FLAGS[@]}" -c "$ROOT/bench/bench_kernels.cu" -o "$OBJ/bench_kernels.o"
build_variant() {
  local name k3 k4 mb defs=()
  IFS=: read -r name k3 k4 mb <<<"$1"
  [[ -n "$k3" ]] && defs+=("-DVPATCH_PPB_3D_K3=$k3")
  [[ -n "$k4" ]] && defs+=("-DVPATCH_PPB_3D_K4=$k4")
  [[ -n "$mb" ]] && defs+=("-DVPATCH_PATCH_MIN_BLOCKS=$mb")
  mkdir -p "$OUTDIR/$name"
  echo "variant $name: ${defs[*]:-default}"
  "$NVCC" "${FLAGS[@]}" ${defs[@]+"${defs[@]}"} -Xptxas -v -c "$ROOT/src/cuda/patch_smoother_3d_lo.cu" \
    -o "$OBJ/lo_$name.o" 2>"$OUTDIR/$name/ptxas.txt"
  "$NVCC" "${FLAGS[@]}" -o "$OUTDIR/$name/bench_kernels" "$OBJ/bench_kernels.o" "$OBJ/lo_$name.o" \
    $(ls "$OBJ"/*.o | grep -v "/lo_" | grep -v bench_kernels.o)
}
export -f build_variant
export ROOT OUTDIR
printf '%s\n' "${VARIANTS[@]}" | xargs -P "$JOBS" -I{} bash -c "$(declare -p FLAGS); build_variant {}"
rm -rf "$OBJ"
for v in "${VARIANTS[@]}"; do gzip -f "$OUTDIR/${v%%:*}/bench_kernels"; done # ~10 MB -> 3.4 MB each
du -sh "$OUTDIR"
