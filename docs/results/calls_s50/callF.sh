#!/usr/bin/env bash
# Call F: the committed library (6657aeb): kernel tests 3D k = 1 (the corrected residual);
# ring stages 3 / 5 / 6 for every gather form (variants sall3, sall5, sall6 by
# TUNE_FILES=laplace bench/tune_variant_lib.sh NAME -DVPATCH_GATHER_STAGES=S) against the
# default 4: 3D k = 1, 2 MatMult and residual at 135M DoF, 2 interleaved rounds.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s50/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
timeout 120 build-cuda/tests/gpu/test_kernels_cuda --dim 3 --degree 1 > /tmp/k.log 2>&1; echo "kernels 3D k=1 rc=$? $(tail -1 /tmp/k.log) corrected: $(grep -c 'PASS.*corrected' /tmp/k.log) pass"
mkdir -p $OUT/tune
ROUNDS=2 bench/tune_libs.sh run .carry/s50/tune $OUT/tune --dim 3 --kmin 1 --kmax 2 --ops laplace_apply,laplace_residual --groups 3 --dofs 135000000
