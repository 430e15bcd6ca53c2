#!/usr/bin/env bash
# Call A (fifty-fourth session): the session's library (the DM's matrix type MATSHELL, the
# coarse solver's -help block, the level defaults entered after the option checks): the GPU
# glue checks, the DM's matrix type on device vectors, and Table 7 with Richardson
# (Algorithm 2.2, fastest of 5) as a regression check of the unchanged kernels.
set -u
source docs/results/calls_s54/prelude.sh
build-cuda/tests/multigrid/mg_api | grep -E "DMGetMatType|^FAIL|passed"
build-cuda/examples/poisson -dim 3 -degree 3 -cells 16 -dm_vec_type cuda -pc_type mg -mg_levels_pc_type vpatch -help 2>&1 | grep -E "dm_mat_type <|PCMG coarse solver" | cut -c1-90
build-cuda/examples/poisson -dim 3 -degree 3 -cells 16 -dm_vec_type cuda -pc_type mg -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_damping -1 2>&1 | grep -E "must be|Option left" | head -3
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 300 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep '^FAIL' $OUT/checks.txt; tail -1 $OUT/checks.txt
echo "== Table 7, Richardson (Algorithm 2.2), fastest of 5"
TABLE7_OPTS="-ksp_type richardson" timeout 200 bench/table7.sh build-cuda $OUT/t7r 5 fmg skip
