#!/usr/bin/env bash
# Call E (fifty-seventh session): the final library (the plain KSPGuess vpatchfmg, the example's
# -fmg through it): mg_api on device vectors (1 and 2 ranks, -malloc_dump) and the mixed
# Richardson solves with -fmg, device against host.
set -u
source docs/results/calls_s57/prelude.sh
tar -xJf .carry/s57/new.tar.xz
for n in 1 2; do
  timeout 100 mpiexec --oversubscribe -n $n build-cuda/tests/multigrid/mg_api -dm_vec_type cuda -malloc_dump -malloc_debug > $OUT/mg_api_$n.txt 2>&1
  echo "mg_api $n rank(s) rc=$? $(grep -c '^FAILED' $OUT/mg_api_$n.txt) failed, unfreed lines $(grep -E -c '^\[ *[0-9]+\] *[0-9]+ bytes( |$)' $OUT/mg_api_$n.txt)"; grep KSPGuess $OUT/mg_api_$n.txt
done
P=build-cuda/examples/poisson
for run in "-dim 3 -degree 1 -cells 32 -pc_type vpatchmg -fmg -ksp_type richardson" "-dim 3 -degree 3 -cells 16 -pc_type vpatchmg -fmg -ksp_type richardson" \
           "-dim 3 -degree 3 -cells 16 -pc_type vpatchmg -ksp_guess_type vpatchfmg" "-dim 2 -degree 5 -cells 32 -pc_type vpatchmg -fmg -ksp_type richardson -pc_vpatchmg_precision double"; do
  echo "$run"
  echo "  cpu $($P $run 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*' | tr '\n' ' ')"
  echo "  gpu $($P $run -dm_vec_type cuda 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|device=[^ ]*' | tr '\n' ' ')"
done
