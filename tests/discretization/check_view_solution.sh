#!/usr/bin/env bash
# Regression check of the example's -view_solution (the solution vector printed by VecView):
# COMMAND must exit 0 (within VPATCH_TEST_TIMEOUT, default 30 s) and print exactly COUNT
# numeric lines (one per support point), whatever the number of ranks.
# Usage: check_view_solution.sh COUNT COMMAND [ARGS...]
set -u
. "$(dirname "$0")/run_captured.sh"
count=$1
shift
run_captured 30 "$@"
grep -v 'Configure options' "$out" | head -40
n=$(grep -c -E '^ *-?[0-9][0-9.]*([eE][-+]?[0-9]+)? *$' "$out")
fail=0
[ $rc -eq 0 ] || { echo "FAILED: exit code $rc"; fail=1; }
[ "$n" -eq "$count" ] || { echo "FAILED: $n numeric lines printed, expected $count"; fail=1; }
[ $fail -eq 0 ] && { echo "PASSED: exit 0 and $n values printed"; exit 0; }
exit 1
