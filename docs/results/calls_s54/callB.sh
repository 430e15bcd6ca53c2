#!/usr/bin/env bash
# Call B (fifty-fourth session): the final library, for the closing note's headline numbers on
# an H200: the 3D kernel table (bench_kernels, the paper's protocol) and the time to a 1e-9
# residual with vpatch against Chebyshev/Jacobi levels on the same hierarchy (3D k = 3, 4, 7).
set -u
source docs/results/calls_s54/prelude.sh
s=$(date +%s); timeout 240 build-cuda/bench/bench_kernels --dim 3 --csv $OUT/kernels_3d_h200.csv > $OUT/kernels_3d_h200.txt 2>&1; echo "bench_kernels rc=$? ($(( $(date +%s) - s )) s)"
python3 bench/roofline_table.py $OUT/kernels_3d_h200.csv > $OUT/roofline_3d_h200.txt 2>&1 || echo "roofline_table failed (run it here)"
echo "== time to 1e-9, vpatch against Chebyshev/Jacobi (fastest of 3)"
timeout 300 bench/solve_compare.sh build-cuda $OUT/cmp 3 "3 4 7"
