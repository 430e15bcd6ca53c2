#!/usr/bin/env bash
# Call F (fifty-second session): MixedFMG records up to the level below the finest also where
# the float hierarchy's graph level is its finest (small problems). Full multigrid alone in
# mixed precision on such meshes, new / old (main, 4b9969f's code) alternating, fastest of 10;
# the GPU glue checks.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
mkdir -p /tmp/old && tar -xJf .carry/s51/final/bins.tar.xz -O build-cuda/libvpatch.so > /tmp/old/libvpatch.so
tar -xJf .carry/s52/new/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
P=build-cuda/examples/poisson
lib() { if [ $1 = new ]; then echo $PWD/build-cuda; else echo /tmp/old; fi; }
for cfg in "1 64" "3 32" "7 16" "2 32"; do set -- $cfg
for l in new old new old; do
  echo "k=$1 cells=$2 mixed $l $(LD_LIBRARY_PATH=$(lib $l):$LD_LIBRARY_PATH $P -dim 3 -degree $1 -cells $2 -dm_vec_type cuda -pc_type vpatchmg -fmg -repeat 10 -ksp_type preonly 2>&1 | grep '^summary:' | grep -o 'rel_residual=[^ ]*\|solve_s=[^ ]*' | tr '\n' ' ')"
done; done
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 300 tests/gpu/run_checks.sh build-cuda /tmp/checks > $OUT/checks.txt 2>&1; echo "rc=$? ($(( $(date +%s) - s )) s)"
grep '^FAIL' $OUT/checks.txt; grep 'graph' $OUT/checks.txt; tail -1 $OUT/checks.txt
