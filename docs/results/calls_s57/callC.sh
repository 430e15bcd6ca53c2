#!/usr/bin/env bash
# Call C (fifty-seventh session): call A again with run_checks.sh starting the kernels' four sanitizer runs
# (memcheck, racecheck x 2D, 3D) in the background at its start, which call A ran one after the other
# at its end (they did not fit the call's 540 s); the same library
# (cbad6a8; its kernels are those of 30247cb, the fifty-sixth session's final library).
set -u
source docs/results/calls_s57/prelude.sh
s=$(date +%s); timeout 540 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "run_checks rc=$? ($(( $(date +%s) - s )) s)"
grep -E "^(FAIL|PASS (kernels|memcheck kernels|racecheck kernels))" $OUT/checks.txt; tail -1 $OUT/checks.txt
