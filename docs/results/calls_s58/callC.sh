#!/usr/bin/env bash
# Call C (fifty-eighth session, two H200s of one host): main's library (the kernels of the
# fifty-sixth session, the KSPGuess vpatchfmg of the fifty-seventh; the multi-GPU checks last ran
# in the fifty-third session): tests/gpu/run_multi_gpu.sh (one rank per GPU, two per GPU, CUDA IPC
# exchanges against PetscSF's, memchecks), mg_api on device vectors on 2 ranks (one per GPU), and
# Table 7 with Richardson on the two GPUs (fastest of 5).
set -u
source docs/results/calls_s58/prelude.sh
s=$(date +%s); timeout 360 tests/gpu/run_multi_gpu.sh build-cuda $OUT/multi > $OUT/multi.txt 2>&1; echo "run_multi_gpu rc=$? ($(( $(date +%s) - s )) s)"
cat $OUT/multi.txt
timeout 120 mpiexec -n 2 build-cuda/tests/multigrid/mg_api -dm_vec_type cuda -malloc_dump > $OUT/mg_api_2gpu.txt 2>&1; echo "mg_api 2 ranks on 2 GPUs: rc=$? $(tail -1 $OUT/mg_api_2gpu.txt); unfreed lines: $(grep -E -c "^\[ *[0-9]+\] *[0-9]+ bytes( |$)" $OUT/mg_api_2gpu.txt)"
echo "== Table 7, Richardson (Algorithm 2.2), 2 ranks on 2 GPUs, fastest of 5"
s=$(date +%s); TABLE7_RANKS=2 TABLE7_OPTS="-ksp_type richardson" timeout 150 bench/table7.sh build-cuda $OUT/t7r2 5 fmg skip; echo "table7 rc=$? ($(( $(date +%s) - s )) s)"
