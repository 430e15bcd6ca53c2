#!/usr/bin/env bash
# Call A (fifty-eighth session): main's library (4143ffb) on one GPU: the GPU acceptance checks in
# full (tests/gpu/run_checks.sh with the kernel test and its sanitizers; the fifty-seventh
# session's last glue run, call F, predates mg_api's loosened Richardson tolerance), then Table 7
# with Richardson (Algorithm 2.2, fastest of 5).
set -u
source docs/results/calls_s58/prelude.sh
s=$(date +%s); timeout 440 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "run_checks rc=$? ($(( $(date +%s) - s )) s)"
grep -E '^FAIL' $OUT/checks.txt; grep -E 'kernels|sanitizer' $OUT/checks.txt | head -8; tail -1 $OUT/checks.txt
echo "== Table 7, Richardson (Algorithm 2.2), fastest of 5"
s=$(date +%s); TABLE7_OPTS="-ksp_type richardson" timeout 130 bench/table7.sh build-cuda $OUT/t7r 5 fmg skip; echo "table7 rc=$? ($(( $(date +%s) - s )) s)"
