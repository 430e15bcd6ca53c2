#!/usr/bin/env bash
# Call G: min-blocks hints for every gather form (variants mball5, mball6b by TUNE_FILES=laplace
# bench/tune_variant_lib.sh NAME -DVPATCH_GATHER_MIN_BLOCKS=B; ptxas: the 3D float k = 2 apply
# 124 registers -> 96 (160 bytes of spills) / 80 (284)) against none: 3D k = 2 at 135M DoF.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s50/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
mkdir -p $OUT/tune
ROUNDS=2 bench/tune_libs.sh run .carry/s50/tune $OUT/tune --dim 3 --kmin 2 --kmax 2 --ops laplace_apply,laplace_residual --groups 3 --dofs 135000000
