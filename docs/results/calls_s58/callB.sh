#!/usr/bin/env bash
# Call B (fifty-eighth session): launch-shape and gather overrides of the 3D k = 2..4 smoother
# re-measured on the fifty-sixth session's kernel (two of the local solve's contractions in
# registers changed its registers and stages since they were tuned): variant libraries by
# TUNE_FILES=patch_smoother_3d_lo bench/tune_variant_lib.sh NAME -DVPATCH_...: ig1 interior
# gathers, mb4 / mb6 min-blocks hints 4 / 6 (the 8-byte k = 3 kernels have 5), po0 without
# the early loads of out; three interleaved rounds, best.
set -u
source docs/results/calls_s58/prelude.sh
s=$(date +%s); ROUNDS=3 timeout 400 bench/tune_libs.sh run .carry/s58/tune $OUT --dim 3 --kmin 2 --kmax 4 --ops smooth_fused,smooth_fused_zero,smooth_boundary; echo "tune_libs rc=$? ($(( $(date +%s) - s )) s)"
