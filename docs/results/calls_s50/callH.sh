#!/usr/bin/env bash
# Call H: the library with the one pass used at 3D k = 1 only (tuning.hpp corrected_residual):
# kernel tests 3D k = 1 and the full 2D set (the corrected kernel's warp-ring units, partial
# tiles and chunks on the large boxes), the Richardson solves device against host, the k = 1
# Richardson A/B against the session's starting library, and a 3D Q2 Richardson solve (two passes again).
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s50/bins.tar.xz
mkdir -p /tmp/old && tar -xJf .carry/s49/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
K=build-cuda/tests/gpu/test_kernels_cuda
for a in "--dim 3 --degree 1" "--dim 2"; do
  timeout 280 $K $a > /tmp/k.log 2>&1; echo "$a rc=$? $(tail -1 /tmp/k.log) corrected: $(grep -c 'PASS.*corrected' /tmp/k.log) pass $(grep -c 'FAIL.*corrected' /tmp/k.log) fail"; grep FAIL /tmp/k.log | head -5
done
P=build-cuda/examples/poisson
for run in "-dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson -fmg" \
           "-dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson -ksp_rtol 0 -ksp_atol 0 -ksp_max_it 7" \
           "-dim 3 -degree 2 -refine 4 -pc_type vpatchmg -ksp_type richardson -fmg"; do
  echo "$run"
  echo "  cpu $($P $run 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|reason=[^ ]*' | tr '\n' ' ')"
  echo "  gpu $($P $run -dm_vec_type cuda 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|device=[^ ]*\|reason=[^ ]*' | tr '\n' ' ')"
done
for prec in single double; do for lib in new old new old; do
  if [ $lib = new ]; then L=$PWD/build-cuda; else L=/tmp/old; fi
  echo "k=1 richardson $prec $lib $(LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH $P -dim 3 -degree 1 -cells 512 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 3 -ksp_type richardson -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done
