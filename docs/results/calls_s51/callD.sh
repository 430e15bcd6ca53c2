#!/usr/bin/env bash
# Call D (fifty-first session): the double tests' norm summed from unscaled squares falls back to
# VecNorm (cuBLAS's scaled nrm2) where the sum underflows or overflows: mg_api on device vectors
# (b scaled by 1e-170 and 1e160, one rank) with the final library, and with call B's library
# (0334717, no fallback) to show the new check fails without it; mg_api on 2 ranks; the k = 1
# Richardson double row (fastest of 3).
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
mkdir -p /tmp/b && tar -xJf .carry/s51/new/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/b/libvpatch.so
tar -xJf .carry/s51/final/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
M=build-cuda/tests/multigrid/mg_api
echo "## mg_api -dm_vec_type cuda, final library, 1 rank"
$M -dm_vec_type cuda > /tmp/m1.log 2>&1; echo "rc=$? $(tail -1 /tmp/m1.log)"; grep "scaled" /tmp/m1.log
echo "## the same with call B's library (no fallback)"
LD_LIBRARY_PATH=/tmp/b:$LD_LIBRARY_PATH $M -dm_vec_type cuda > /tmp/m0.log 2>&1; echo "rc=$? $(tail -1 /tmp/m0.log)"; grep "scaled" /tmp/m0.log
echo "## mg_api -dm_vec_type cuda, final library, 2 ranks"
mpiexec --oversubscribe -n 2 $M -dm_vec_type cuda > /tmp/m2.log 2>&1; echo "rc=$? $(tail -1 /tmp/m2.log)"
echo "## k = 1 Richardson double, fastest of 3, final library"
build-cuda/examples/poisson -dim 3 -degree 1 -cells 512 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 3 -ksp_type richardson -pc_vpatchmg_precision double 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' '; echo
