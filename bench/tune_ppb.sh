#!/usr/bin/env bash
# Runs the launch-shape variants built by bench/tune_ppb_build.sh (build-tune/<variant>/
# bench_kernels.gz) on 3D k = 3, 4, float and double, 5 groups; CSVs (and stdout logs) go to
# ${OUT:-build-tune/results}/<variant>.csv; prints one table of the smoother operations:
# variant, k, precision, operation, GDoF/s, roofline %.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${OUT:-$ROOT/build-tune/results}"
mkdir -p "$DEST"
nvidia-smi -L || true
BIN="$(mktemp -d)"
for gz in "$ROOT"/build-tune/*/bench_kernels.gz; do
  name="$(basename "$(dirname "$gz")")"
  echo "== $name"
  bin="$BIN/$name"
  gunzip -c "$gz" >"$bin" && chmod +x "$bin"
  "$bin" --dim 3 --kmin 3 --kmax 4 --groups 5 "$@" --csv "$DEST/$name.csv" >"$DEST/$name.txt" 2>&1 \
    || { echo "  FAILED (rc $?)"; tail -5 "$DEST/$name.txt"; }
done
printf '%-12s %2s %-7s %-16s %8s %7s\n' variant k prec operation GDoF/s roof%
for csv in "$DEST"/*.csv; do
  name="$(basename "$csv" .csv)"
  awk -F, -v v="$name" 'NR > 1 && $5 ~ /^smooth/ { printf "%-12s %2s %-7s %-16s %8.3f %7.2f\n", v, $3, $4, $5, $8, $12 }' "$csv"
done | sort -k2,2n -k3,3 -k4,4 -k1,1
