#!/usr/bin/env bash
# Call F (fifty-seventh session): the GPU glue checks on the session's final library (the
# KSPGuess vpatchfmg with its KSPPREONLY check; mg_api built in build-cuda).
set -u
source docs/results/calls_s57/prelude.sh
tar -xJf .carry/s57/new.tar.xz
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 220 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "run_checks rc=$? ($(( $(date +%s) - s )) s)"
grep -E '^FAIL' $OUT/checks.txt; grep -E '^PASS mg_api' $OUT/checks.txt; tail -1 $OUT/checks.txt; grep -h "KSPGuess" $OUT/checks/mg_api_1.log
