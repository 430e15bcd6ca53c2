#!/usr/bin/env bash
# Call D (fifty-sixth session): the final library (30247cb: the solve with two contractions in
# registers, the given residual through registers) for the headline numbers: the GPU glue checks, the 3D kernel table (the paper's
# protocol), the time to a 1e-9 residual against Chebyshev/Jacobi levels (3D k = 3, 4, 7) and
# Table 7 with Richardson (Algorithm 2.2, fastest of 5).
set -u
source docs/results/calls_s56/prelude.sh
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 240 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "run_checks rc=$? ($(( $(date +%s) - s )) s)"
grep -E '^FAIL' $OUT/checks.txt; tail -1 $OUT/checks.txt
s=$(date +%s); timeout 150 build-cuda/bench/bench_kernels --dim 3 --csv $OUT/kernels_3d_h200.csv > $OUT/kernels_3d_h200.txt 2>&1; echo "bench_kernels rc=$? ($(( $(date +%s) - s )) s)"
python3 bench/roofline_table.py $OUT/kernels_3d_h200.csv 2>&1 | grep -E "^\| (dim|---|3)"
echo "== time to 1e-9, vpatch against Chebyshev/Jacobi (fastest of 3)"
timeout 200 bench/solve_compare.sh build-cuda $OUT/cmp 3 "3 4 7"
echo "== Table 7, Richardson (Algorithm 2.2), fastest of 5"
TABLE7_OPTS="-ksp_type richardson" timeout 150 bench/table7.sh build-cuda $OUT/t7r 5 fmg skip
