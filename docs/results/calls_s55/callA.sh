#!/usr/bin/env bash
# Call A (fifty-fifth session): the Richardson correction vectors kept until PCReset
# (src/petsc/work_vec.hpp): the GPU glue checks, whose mg_api runs on device vectors now
# also read -malloc_dump's report; mg_api on device vectors under compute-sanitizer's leak
# check (device allocations left at exit); Table 7 with Richardson (Algorithm 2.2, fastest of
# 5) as a regression check of the unchanged kernels.
set -u
source docs/results/calls_s55/prelude.sh
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 300 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep -E '^FAIL|mg_api' $OUT/checks.txt; tail -1 $OUT/checks.txt
echo "== compute-sanitizer --leak-check full: mg_api -dm_vec_type cuda (1 rank)"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
s=$(date +%s); timeout 240 $CS --leak-check full --error-exitcode 9 build-cuda/tests/multigrid/mg_api -dm_vec_type cuda > $OUT/mg_api_leakcheck.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep -E "check\(s\) failed|ERROR SUMMARY|LEAK SUMMARY|Leaked" $OUT/mg_api_leakcheck.txt | head -8
echo "== Table 7, Richardson (Algorithm 2.2), fastest of 5"
TABLE7_OPTS="-ksp_type richardson" timeout 200 bench/table7.sh build-cuda $OUT/t7r 5 fmg skip
