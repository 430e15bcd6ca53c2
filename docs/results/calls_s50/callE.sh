#!/usr/bin/env bash
# Call E: the final library (corrected residual, 3 stages at 3D k = 1): kernel tests and
# sanitizers of the corrected paths, the Richardson solves device against host, Table 7 with
# FGMRES and with Richardson (bench/table7.sh, fastest of 3), and a same-call A/B of the k = 1
# Richardson row against HEAD's library.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s50/bins.tar.xz
mkdir -p /tmp/old && tar -xJf .carry/s49/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
K=build-cuda/tests/gpu/test_kernels_cuda
echo "## kernel tests"
for a in "--dim 3 --degree 1" "--dim 3 --degree 2" "--dim 3 --quick" "--dim 2 --quick"; do
  timeout 300 $K $a > /tmp/k.log 2>&1; echo "$a rc=$? $(tail -1 /tmp/k.log) corrected: $(grep -c 'PASS.*corrected' /tmp/k.log) pass $(grep -c 'FAIL.*corrected' /tmp/k.log) fail"; grep FAIL /tmp/k.log | head -5
done
echo "## sanitizers, 3D k = 1 quick"
for t in memcheck racecheck; do timeout 200 compute-sanitizer --tool $t $K --quick --dim 3 --degree 1 > /tmp/$t.log 2>&1; echo "$t rc=$? $(grep 'ERROR SUMMARY\|RACECHECK SUMMARY' /tmp/$t.log | head -1) $(tail -1 /tmp/$t.log)"; done
echo "## Richardson solves: device against host"
P=build-cuda/examples/poisson
for run in "-dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson" \
           "-dim 3 -degree 2 -refine 4 -pc_type vpatchmg -ksp_type richardson -fmg" \
           "-dim 2 -degree 10 -refine 4 -pc_type vpatchmg -ksp_type richardson" \
           "-dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson -ksp_rtol 0 -ksp_atol 0 -ksp_max_it 7"; do
  echo "$run"
  echo "  cpu $($P $run 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|reason=[^ ]*' | tr '\n' ' ')"
  echo "  gpu $($P $run -dm_vec_type cuda 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|device=[^ ]*\|reason=[^ ]*' | tr '\n' ' ')"
done
echo "## Table 7, FGMRES (bench/table7.sh build-cuda /tmp/t7f 3 fmg skip)"
bench/table7.sh build-cuda /tmp/t7f 3 fmg skip
echo "## Table 7, Richardson (TABLE7_OPTS=\"-ksp_type richardson\" bench/table7.sh build-cuda /tmp/t7r 3 fmg skip)"
TABLE7_OPTS="-ksp_type richardson" bench/table7.sh build-cuda /tmp/t7r 3 fmg skip
echo "## k = 1 Richardson A/B, new / old alternating, fastest of 3"
for prec in single double; do for lib in new old new old; do
  if [ $lib = new ]; then L=$PWD/build-cuda; else L=/tmp/old; fi
  echo "k=1 richardson $prec $lib $(LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH $P -dim 3 -degree 1 -cells 512 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 3 -ksp_type richardson -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done
