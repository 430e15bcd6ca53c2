#!/usr/bin/env bash
# Call A (fifty-seventh session): the GPU acceptance checks in full (kernel tests of every
# variant against the CPU path with their sanitizer runs, the glue checks) on main's library
# (cbad6a8; its kernels are those of 30247cb, the fifty-sixth session's final library).
set -u
source docs/results/calls_s57/prelude.sh
s=$(date +%s); timeout 540 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "run_checks rc=$? ($(( $(date +%s) - s )) s)"
grep -E '^(FAIL|PASS kernels)' $OUT/checks.txt; tail -1 $OUT/checks.txt
