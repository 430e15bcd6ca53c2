#!/usr/bin/env bash
# Same-call A/B of variant libraries built by bench/tune_variant_lib.sh: the unchanged
# build-cuda/bench/bench_kernels runs against build-cuda/libvpatch.so ("base") and against
# each variant, in ROUNDS interleaved rounds (variant order repeated, so drift hits all
# alike); prints, per k, precision and operation, every variant's best GDoF/s over the rounds.
# Variants travel compressed (xz) to keep the device tool's working tree small:
#   here:  bench/tune_libs.sh pack DIR NAME...      # build-tune/NAME/libvpatch.so -> DIR/NAME.so.xz
#   there: bench/tune_libs.sh run DIR OUT [bench_kernels options]   (ROUNDS=2 default)
# e.g.     bench/tune_libs.sh run .carry/tune $OUT --dim 3 --kmin 2 --kmax 6 --ops prolongate+restrict --precision float
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=${1:?usage: $0 pack DIR NAME... | run DIR OUT [bench options]}; dir=${2:?DIR}; shift 2
if [ "$mode" = pack ]; then
  mkdir -p "$dir"
  for n in "$@"; do xz -T0 -3 -c "$ROOT/build-tune/$n/libvpatch.so" > "$dir/$n.so.xz"; done
  exit 0
fi
out=${1:?OUT}; shift
libs="$(mktemp -d)"
mkdir -p "$libs/base" && cp "$ROOT/build-cuda/libvpatch.so" "$libs/base/"
for x in "$dir"/*.so.xz; do n=$(basename "$x" .so.xz); mkdir -p "$libs/$n" && xz -dc "$x" > "$libs/$n/libvpatch.so"; done
names="base $(cd "$dir" && ls *.so.xz 2>/dev/null | sed 's/\.so\.xz$//' | tr '\n' ' ')"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for n in $names; do
    LD_LIBRARY_PATH="$libs/$n:${LD_LIBRARY_PATH:-}" "$ROOT/build-cuda/bench/bench_kernels" "$@" --csv "$out/$n.r$round.csv" > "$out/$n.r$round.txt" 2>&1 \
      || { echo "$n round $round FAILED"; tail -3 "$out/$n.r$round.txt"; }
  done
done
printf '%-10s %2s %-7s %-20s %8s\n' variant k prec operation GDoF/s
for n in $names; do
  cat "$out/$n".r*.csv 2>/dev/null | awk -F, -v v="$n" '$1 != "device" { key = $3 " " $4 " " $5; if ($8 > best[key]) best[key] = $8 }
    END { for (key in best) { split(key, a, " "); printf "%-10s %2s %-7s %-20s %8.2f\n", v, a[1], a[2], a[3], best[key] } }'
done | sort -k2,2n -k3,3 -k4,4 -k5,5nr
