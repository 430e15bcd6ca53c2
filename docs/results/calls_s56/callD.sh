#!/usr/bin/env bash
# Call D (fifty-sixth session): call B's commands (the GPU glue checks, the 3D kernel table, the
# time to 1e-9 against Chebyshev/Jacobi levels, Table 7 with Richardson) on the final library
# (30247cb: the solve with two contractions in registers, the given residual through registers).
exec bash docs/results/calls_s56/callB.sh
