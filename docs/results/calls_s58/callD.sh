#!/usr/bin/env bash
# Call D (fifty-eighth session, two H200s of one host): Table 7 with Richardson (Algorithm 2.2,
# fastest of 5) on one and on two GPUs of the same machine, twice each (1, 2, 1, 2), for the
# two-GPU speedup with main's library (call C ran two GPUs only).
set -u
source docs/results/calls_s58/prelude.sh
for round in 1 2; do
  for r in 1 2; do
    echo "== round $round, $r rank(s)"
    TABLE7_RANKS=$r TABLE7_OPTS="-ksp_type richardson" timeout 140 bench/table7.sh build-cuda $OUT/t7_${r}_$round 5 fmg skip | sed 's/ solve_avg_s.*peak_device_mib/ peak_device_mib/'
  done
done
