#!/usr/bin/env bash
# Call B (fifty-fifth session): the GPU glue checks with compute-sanitizer's leak check on every
# memcheck run of a solver (and of mg_api on device vectors): nothing left allocated on the
# device at exit.
set -u
source docs/results/calls_s55/prelude.sh
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 400 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep -E '^FAIL|memcheck|racecheck' $OUT/checks.txt; tail -1 $OUT/checks.txt
grep -h "LEAK SUMMARY" $OUT/checks/sanitizer_memcheck_*.log | sort | uniq -c
