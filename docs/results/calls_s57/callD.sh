#!/usr/bin/env bash
# Call D (fifty-seventh session): the KSPGuess vpatchfmg, whose full multigrid under
# KSPRICHARDSON also forms the first test (in single precision on one GPU's gather levels, 3D
# k <= 3, in the pass that adds the last correction), and the example's -fmg through it. The GPU
# glue checks (mg_api's new check on device vectors, the mixed Richardson solves with -fmg
# against the host's, their memchecks), then Table 7 with Richardson, k = 1 and 3, this library
# (new) against call B's (old, cbad6a8), two rounds alternating.
set -u
source docs/results/calls_s57/prelude.sh
mkdir -p old && tar -xJf .carry/s57/bins.tar.xz -C old && tar -xJf .carry/s57/new.tar.xz
s=$(date +%s); RUN_CHECKS_KERNELS=0 timeout 240 tests/gpu/run_checks.sh build-cuda $OUT/checks > $OUT/checks.txt 2>&1; echo "run_checks rc=$? ($(( $(date +%s) - s )) s)"
grep -E '^FAIL' $OUT/checks.txt; tail -1 $OUT/checks.txt; grep -h "KSPGuess" $OUT/checks/mg_api_*.log
for round in 1 2; do for lib in old new; do
  if [ $lib = new ]; then B=build-cuda; L=$PWD/build-cuda; else B=old/build-cuda; L=$PWD/old/build-cuda; fi
  LD_LIBRARY_PATH=$L:$LD_LIBRARY_PATH TABLE7_DEGREES="1 3" TABLE7_OPTS="-ksp_type richardson" timeout 120 bench/table7.sh $B $OUT/t7_${lib}_$round 5 fmg skip > $OUT/t7_${lib}_$round.txt 2>&1
  echo "$lib round $round rc=$?"; grep '^summary' $OUT/t7_${lib}_$round.txt | sed -E 's/.*degree=([0-9]+).*iterations=([0-9]+) rel_residual=([^ ]+) l2_error=([^ ]+).*solve_s=([^ ]+).*precision=([a-z]+).*/  k=\1 \6 its=\2 res=\3 l2=\4 solve_s=\5/'
done; done
