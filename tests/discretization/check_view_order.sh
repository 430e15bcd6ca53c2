#!/usr/bin/env bash
# VecView of the DM's vectors in natural order whatever the rank grid: the example's
# -view_solution on RANKS ranks must print the same values, in the same order, as on one rank.
# EXTRA (one word: options separated by commas, or none) is added to the RANKS-rank run only.
# Usage: check_view_order.sh MPIEXEC RANKS EXTRA COMMAND [ARGS...]
set -u
mpiexec=$1 ranks=$2 extra=${3//,/ }
[ "$extra" = none ] && extra=
shift 3
. "$(dirname "$0")/run_captured.sh"
values() { grep -E '^ *-?[0-9][0-9.]*([eE][-+]?[0-9]+)? *$' "$1"; }
run_captured 30 "$mpiexec" --oversubscribe -n 1 "$@"
[ $rc -eq 0 ] || { echo "FAILED: 1 rank: exit code $rc"; exit 1; }
one=$(values "$out")
# shellcheck disable=SC2086
run_captured 30 "$mpiexec" --oversubscribe -n "$ranks" "$@" $extra
[ $rc -eq 0 ] || { echo "FAILED: $ranks ranks: exit code $rc"; exit 1; }
many=$(values "$out")
n=$(echo "$one" | wc -l)
[ "$n" -gt 1 ] || { echo "FAILED: no values printed"; exit 1; }
if [ "$one" != "$many" ]; then
  echo "FAILED: the $ranks-rank output differs from the 1-rank one"
  diff <(echo "$one") <(echo "$many") | head -20
  exit 1
fi
echo "PASSED: $n values, the same on 1 and $ranks ranks"
