#!/usr/bin/env bash
# Call D (fifty-second session): full multigrid up to the graph level recorded as one CUDA graph
# (Hierarchy::full, MixedFMG::run). 'old' = main's library (4b9969f's code, s51/final), 'new' =
# this change. Full multigrid alone (-ksp_type preonly -fmg), fastest of 10, new / old
# alternating; Table 7 with Richardson, new / old alternating, fastest of 5; the GPU glue checks.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
mkdir -p /tmp/old && tar -xJf .carry/s51/final/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
tar -xJf .carry/s52/new/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
P=build-cuda/examples/poisson
lib() { if [ $1 = new ]; then echo $PWD/build-cuda; else echo /tmp/old; fi; }
echo "## full multigrid alone (-ksp_type preonly -fmg -repeat 10)"
for cfg in "1 64" "1 128" "1 512" "3 32" "3 64" "3 256" "7 16" "7 32" "7 128"; do set -- $cfg
for prec in double single; do for l in new old new old; do
  echo "k=$1 cells=$2 $prec $l $(LD_LIBRARY_PATH=$(lib $l):$LD_LIBRARY_PATH $P -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 10 -ksp_type preonly -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'rel_residual=[^ ]*\|solve_s=[^ ]*\|solve_avg_s=[^ ]*' | tr '\n' ' ')"
done; done; done
echo "## Table 7 with Richardson (-fmg -repeat 5), new / old alternating"
for cfg in "1 512" "3 256" "7 128"; do set -- $cfg
for prec in double single; do for l in new old new old; do
  echo "k=$1 $prec $l $(LD_LIBRARY_PATH=$(lib $l):$LD_LIBRARY_PATH $P -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 5 -ksp_type richardson -pc_vpatchmg_precision $prec 2>&1 | grep '^summary:' | grep -o 'iterations=[0-9]*\|rel_residual=[^ ]*\|l2_error=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done; done
echo "## RUN_CHECKS_KERNELS=0 tests/gpu/run_checks.sh build-cuda /tmp/checks"
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 260 tests/gpu/run_checks.sh build-cuda /tmp/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep -c '^PASS' $OUT/checks.txt; grep '^FAIL' $OUT/checks.txt; grep 'graphs' $OUT/checks.txt; tail -1 $OUT/checks.txt
