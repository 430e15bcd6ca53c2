#!/usr/bin/env bash
# Call E (fifty-eighth session, two H200s of one host): the mixed residual of a level whose
# residual takes two passes (distributed, or on the host) as A x, then b - A x rounded to float
# with its norm in one pass (difference_to_float), where it was b - A x in double, then the
# conversion. The kernel test of difference_to_float, the multi-GPU checks, mg_api on 2 GPUs,
# and Table 7 with Richardson (k = 1, 3) on two GPUs, this library (new) against the session's
# earlier one (old, 4143ffb), alternating, two rounds, fastest of 5.
set -u
source docs/results/calls_s58/prelude.sh
tar -xJf .carry/s58/new.tar.xz
mkdir -p /tmp/old && xz -dc .carry/s58/old/libvpatch.so.xz > /tmp/old/libvpatch.so
timeout 120 build-cuda/tests/gpu/test_kernels_cuda --quick --dim 3 --degree 1 > $OUT/kernels.txt 2>&1; echo "kernels --quick --dim 3 --degree 1 rc=$? $(tail -1 $OUT/kernels.txt)"; grep -E "to_float" $OUT/kernels.txt | head -8
s=$(date +%s); timeout 200 tests/gpu/run_multi_gpu.sh build-cuda $OUT/multi > $OUT/multi.txt 2>&1; echo "run_multi_gpu rc=$? ($(( $(date +%s) - s )) s)"
grep -E "^FAIL|^PASS 3D|^PASS 2D" $OUT/multi.txt; tail -1 $OUT/multi.txt
timeout 100 mpiexec -n 2 build-cuda/tests/multigrid/mg_api -dm_vec_type cuda -malloc_dump > $OUT/mg_api_2gpu.txt 2>&1; echo "mg_api 2 ranks on 2 GPUs: rc=$? $(tail -1 $OUT/mg_api_2gpu.txt); unfreed lines: $(grep -E -c "^\[ *[0-9]+\] *[0-9]+ bytes( |$)" $OUT/mg_api_2gpu.txt)"
for round in 1 2; do
  for lib in new old; do
    L=$PWD/build-cuda; [ $lib = old ] && L=/tmp/old
    echo "== round $round, $lib"
    LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH TABLE7_RANKS=2 TABLE7_DEGREES="1 3" TABLE7_OPTS="-ksp_type richardson" timeout 100 bench/table7.sh build-cuda $OUT/t7_${lib}_$round 5 fmg skip | sed 's/ solve_avg_s.*peak_device_mib/ peak_device_mib/; s/^summary: dim=3 //'
  done
done
