#!/usr/bin/env bash
# Call B (fifty-seventh session): Table 7 with Richardson (Algorithm 2.2), k = 1 and 3, three
# rounds of fastest-of-5 in one call, for the spread of the mixed / double ratio that sits at
# issue 5's 1.5x at k = 3.
set -u
source docs/results/calls_s57/prelude.sh
for round in 1 2 3; do
  TABLE7_DEGREES="1 3" TABLE7_OPTS="-ksp_type richardson" timeout 170 bench/table7.sh build-cuda $OUT/t7r_$round 5 fmg skip > $OUT/t7r_$round.txt 2>&1
  echo "round $round rc=$?"
  python3 - "$OUT/t7r_$round.txt" <<'P'
import re, sys
t = {}
for l in open(sys.argv[1]):
    if l.startswith('summary:'):
        f = dict(kv.split('=', 1) for kv in l.split()[1:] if '=' in kv)
        t[(f['degree'], f['precision'])] = f
        print('  k=%s %-6s its=%s l2=%s solve_s=%s' % (f['degree'], f['precision'], f['iterations'], f['l2_error'], f['solve_s']))
for k in ('1', '3'):
    if (k, 'double') in t and (k, 'mixed') in t:
        print('  k=%s speedup %.3f' % (k, float(t[(k, 'double')]['solve_s']) / float(t[(k, 'mixed')]['solve_s'])))
P
done
# the kernels' racecheck, which call A's 540 s cut: 3D k = 3, 7 and 2D k = 3 (--quick)
K=build-cuda/tests/gpu/test_kernels_cuda
for dk in "3 3" "3 7" "2 3"; do set -- $dk
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $K --quick --dim $1 --degree $2 > $OUT/race_$1_$2.txt 2>&1; echo "racecheck dim $1 k=$2 rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/race_$1_$2.txt | tail -1) $(grep -E 'passed' $OUT/race_$1_$2.txt | tail -1)"
done
