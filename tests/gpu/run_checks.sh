#!/usr/bin/env bash
# GPU acceptance checks (run on a machine with an NVIDIA GPU and a CUDA PETSc, from the
# repository root, after building build-cuda with CMake): kernel tests against the CPU
# reference, the PETSc solver on the device against the CPU path (iterations, errors),
# the public API's checks on device vectors (mg_api), the grid transfer's (mg_transfer), the device vectors' multi-vector
# operations against PETSc's, host-device copies inside
# KSPSolve, and compute-sanitizer memcheck/racecheck (memcheck with its leak check: nothing
# left allocated on the device at exit).
# Usage: tests/gpu/run_checks.sh [build dir] [log dir]
# (RUN_CHECKS_KERNELS=0: skip the kernel test and its sanitizer runs, for a change to the
#  PETSc glue only; the kernels' own checks then come from the last full run)
set -uo pipefail
B=${1:-build-cuda}
LOG=${2:-${OUT:-/tmp}}
mkdir -p "$LOG"
P=$B/examples/poisson
fails=0; passes=0
ok()   { passes=$((passes+1)); echo "PASS $*"; }
bad()  { fails=$((fails+1)); echo "FAIL $*"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

KERNELS=${RUN_CHECKS_KERNELS:-1}
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# The kernel test (--quick) under compute-sanitizer's memcheck and racecheck, 2D and 3D apart:
# the four runs start now in the background and report at the end (one GPU holds them and the
# checks below; racecheck's analysis takes most of the time: one after the other, after the
# other checks, they took the script beyond 9 minutes on an H200)
kernel_runs=()
if [ "$KERNELS" != 0 ]; then
  for tool in memcheck racecheck; do for d in 2 3; do
    $CS --tool $tool --error-exitcode 9 $B/tests/gpu/test_kernels_cuda --quick --dim $d > $LOG/sanitizer_${tool}_kernels_${d}d.log 2>&1 &
    kernel_runs+=("$!:$tool:$d")
  done; done
fi
echo "== kernel tests (CUDA vs CPU reference, all variants)"
if [ "$KERNELS" = 0 ]; then echo "skipped (RUN_CHECKS_KERNELS=0)"
elif $B/tests/gpu/test_kernels_cuda > $LOG/kernels.log 2>&1; then ok "kernels: $(tail -1 $LOG/kernels.log)"; else bad "kernels: $(tail -1 $LOG/kernels.log)"; fi

echo "== the device vectors' VecMDot / VecMAXPY against PETSc's VECCUDA (1 and 2 ranks)"
for n in 1 2; do
  if mpiexec --oversubscribe -n $n $B/tests/gpu/test_vec_ops > $LOG/vec_ops_$n.log 2>&1; then ok "vec ops, $n rank(s): $(tail -1 $LOG/vec_ops_$n.log)"; else bad "vec ops, $n rank(s): $(tail -1 $LOG/vec_ops_$n.log)"; fi
done

echo "== the public API on device vectors (tests/multigrid/mg_api -dm_vec_type cuda, 1 and 2 ranks; -malloc_dump: no '[ 0] N bytes' line)"
for n in 1 2; do
  mpiexec --oversubscribe -n $n $B/tests/multigrid/mg_api -dm_vec_type cuda -malloc_dump -malloc_debug > $LOG/mg_api_$n.log 2>&1; rc=$?
  unfreed=$(grep -E -c '^\[ *[0-9]+\] *[0-9]+ bytes( |$)' $LOG/mg_api_$n.log)
  if [ $rc -eq 0 ] && [ "$unfreed" -eq 0 ]; then ok "mg_api, $n rank(s): $(grep 'check(s) failed' $LOG/mg_api_$n.log | tail -1), nothing unfreed"; else bad "mg_api, $n rank(s): $(grep -c FAILED $LOG/mg_api_$n.log) failed, $unfreed unfreed, $(tail -1 $LOG/mg_api_$n.log)"; fi
done
echo "== the grid transfer on device vectors (tests/multigrid/mg_transfer -dm_vec_type cuda: 3D k = 1..4 on 1 rank, 2D k = 1..6 on 2)"
for run in "1 -dim 3 -kmin 1 -kmax 4 -cells 4" "2 -dim 2 -kmin 1 -kmax 6 -cells 8"; do
  set -- $run; n=$1; shift
  if mpiexec --oversubscribe -n $n $B/tests/multigrid/mg_transfer "$@" -dm_vec_type cuda > $LOG/mg_transfer_$n.log 2>&1; then ok "mg_transfer, $n rank(s): $(tail -1 $LOG/mg_transfer_$n.log)"; else bad "mg_transfer, $n rank(s): $(grep -c FAILED $LOG/mg_transfer_$n.log) failed, $(tail -1 $LOG/mg_transfer_$n.log)"; fi
done

echo "== PETSc solves: device against host"
cmp_run() { # args: label, options...
  local label=$1; shift
  local c g
  c=$($P "$@" 2>&1 | grep '^summary:') || true
  g=$($P "$@" -dm_vec_type cuda 2>&1 | grep '^summary:') || true
  local ic ig ec eg dev rc rg
  ic=$(echo "$c" | field iterations); ig=$(echo "$g" | field iterations)
  rc=$(echo "$c" | field reason); rg=$(echo "$g" | field reason)
  ec=$(echo "$c" | field l2_error); eg=$(echo "$g" | field l2_error); dev=$(echo "$g" | field device)
  echo "$label cpu: $c" >> $LOG/compare.log; echo "$label gpu: $g" >> $LOG/compare.log
  # double: the same error to 1e-8 relative, or 1e-13 absolute where the error is at the
  # level a 1e-9 residual resolves (atomics sum in another order on the device); mixed
  # precision: float rounding differs between the devices (1e-10 absolute)
  local tol=1e-13; case "$*" in *vpatchmg*) tol=1e-10 ;; esac
  # both converged (equal counts alone would pass a bug of the glue both paths share)
  if [ -n "$ic" ] && [ "$ic" = "$ig" ] && [ "$dev" = cuda ] && [ "${rc#CONVERGED}" != "$rc" ] && [ "${rg#CONVERGED}" != "$rg" ] && python3 -c "import sys; a,b=float('$ec'),float('$eg'); sys.exit(0 if abs(a-b)<=1e-8*abs(a)+$tol else 1)"; then
    ok "$label: iterations $ic/$ig, l2 $ec/$eg"
  else bad "$label: iterations $ic/$ig, l2 $ec/$eg, reasons $rc/$rg, device $dev"; fi
}
for k in 1 2 3 4 5 6 7 8 9 10; do cmp_run "2D Q$k mg" -dim 2 -degree $k -refine 5 -pc_type mg -pc_mg_levels 5 -mg_levels_pc_type vpatch; done
for k in 1 2 3 4 5 6 7 8; do cmp_run "3D Q$k mg" -dim 3 -degree $k -refine 3 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch; done
for kern in fused boundary global basic; do
  cmp_run "3D Q4 kernel $kern" -dim 3 -degree 4 -refine 3 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_kernel $kern
  cmp_run "2D Q6 kernel $kern" -dim 2 -degree 6 -refine 5 -pc_type mg -pc_mg_levels 5 -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_kernel $kern
done
cmp_run "3D Q3 symmetric CG" -dim 3 -degree 3 -refine 3 -ksp_type cg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_sweep symmetric
cmp_run "3D Q3 additive CG" -dim 3 -degree 3 -refine 3 -ksp_type cg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_type additive
cmp_run "2D Q1 chebyshev/vpatch CG" -dim 2 -degree 1 -cells 128 -ksp_type cg -pc_type mg -mg_levels_pc_type vpatch -mg_levels_ksp_type chebyshev
cmp_run "3D Q2 chebyshev/jacobi" -dim 3 -degree 2 -refine 4 -pc_type mg -pc_mg_levels 4 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi
for k in 1 3 7; do cmp_run "3D Q$k mixed fmg" -dim 3 -degree $k -refine 3 -pc_type vpatchmg -fmg; done
cmp_run "2D Q5 mixed" -dim 2 -degree 5 -refine 6 -pc_type vpatchmg
cmp_run "2D Q5 mixed fmg" -dim 2 -degree 5 -refine 6 -pc_type vpatchmg -fmg
# the symmetric cycle of PCVPATCHMG under CG, and PCMG's version of it
cmp_run "3D Q3 mixed CG symmetric cycle" -dim 3 -degree 3 -refine 3 -pc_type vpatchmg -ksp_type cg -pc_vpatchmg_symmetric_cycle
cmp_run "3D Q3 mg CG forward/backward" -dim 3 -degree 3 -refine 3 -ksp_type cg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -pc_mg_distinct_smoothup -mg_levels_up_pc_type vpatch -mg_levels_up_pc_vpatch_sweep backward
for f in "" -fmg; do cmp_run "3D Q3 vpatchmg double $f" -dim 3 -degree 3 -refine 3 -pc_type vpatchmg -pc_vpatchmg_precision double $f; done
# Richardson with PCVPATCHMG (its PCApplyRichardson: double cycles from y, single-precision
# refinement steps with the one-pass float residual on the device)
for p in double single; do cmp_run "3D Q3 vpatchmg $p richardson -fmg" -dim 3 -degree 3 -refine 3 -pc_type vpatchmg -pc_vpatchmg_precision $p -ksp_type richardson -fmg; done
cmp_run "3D Q1 mixed richardson" -dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson
# the mixed steps whose correction goes in the next residual's pass (tuning.hpp
# corrected_residual: 3D k = 1), after full multigrid, and untested (7 steps: the first from
# zero, 5 in one pass, ending in w, the last one's correction added alone)
cmp_run "3D Q1 mixed richardson -fmg" -dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson -fmg
cmp_run "3D Q1 mixed richardson, 7 steps untested" -dim 3 -degree 1 -refine 5 -pc_type vpatchmg -ksp_type richardson -ksp_rtol 0 -ksp_atol 0 -ksp_max_it 7
# a user's problem with nonzero Dirichlet data (VPatchFormRHS / VPatchComputeL2Diff on device vectors)
cmp_run "3D Q3 mg rhs exp" -dim 3 -degree 3 -refine 3 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -rhs exp
cmp_run "3D Q3 mixed fmg rhs exp" -dim 3 -degree 3 -refine 3 -pc_type vpatchmg -fmg -rhs exp
# CUDA graphs of the small levels' cycles (PCVPATCHMG on one rank): the same iterations and
# residuals as kernel by kernel, to the run-to-run spread of the atomics (1e-2 relative: three
# runs of the 2D Q5 case without graphs gave 6.885e-11..6.904e-11, 2.8e-3 apart)
graphs() { # args: options...
  local a b
  a=$($P "$@" -dm_vec_type cuda -pc_vpatchmg_cuda_graphs 0 -ksp_view | grep -E '^summary:|CUDA graphs:') || true
  b=$($P "$@" -dm_vec_type cuda -repeat 2 -ksp_view | grep -E '^summary:|CUDA graphs:') || true
  local ia ib ra rb
  ia=$(echo "$a" | field iterations); ib=$(echo "$b" | field iterations)
  ra=$(echo "$a" | field rel_residual); rb=$(echo "$b" | field rel_residual)
  if [ -n "$ia" ] && [ "$ia" = "$ib" ] && echo "$b" | grep -q 'CUDA graphs: the cycles from zero and full multigrid of levels' && echo "$a" | grep -q 'CUDA graphs: none' &&
     python3 -c "import sys; a,b=float('$ra'),float('$rb'); sys.exit(0 if abs(a-b)<=1e-2*abs(a) else 1)"; then
    ok "graphs $*: iterations $ia/$ib, residual $ra/$rb"
  else bad "graphs $*: $a | $b"; fi
}
graphs -dim 3 -degree 3 -cells 32 -pc_type vpatchmg
graphs -dim 3 -degree 3 -cells 32 -pc_type vpatchmg -fmg
# full multigrid alone (Richardson without a step, so that -ksp_view prints), its levels up
# to the graph level recorded: in mixed precision (MixedFMG), in double, and all in float (the
# whole hierarchy within 2^21 points: recorded whole)
graphs -dim 3 -degree 1 -cells 128 -pc_type vpatchmg -fmg -ksp_type richardson -ksp_max_it 0
graphs -dim 3 -degree 1 -cells 128 -pc_type vpatchmg -fmg -ksp_type richardson -ksp_max_it 0 -pc_vpatchmg_precision double
graphs -dim 3 -degree 3 -cells 32 -pc_type vpatchmg -fmg -ksp_type richardson -ksp_max_it 0 -pc_vpatchmg_fmg_double 0
# the full multigrid recording made once and replayed: two solves, one "recorded" line (-info)
recorded() { # label, options...
  local label=$1; shift
  local n
  n=$($P "$@" -dm_vec_type cuda -repeat 2 -info 2>&1 | grep -c "$label of levels 0\.\.[0-9]* recorded as a CUDA graph") || true
  [ "$n" = 1 ] && ok "recorded once: $label, $*" || bad "recorded once: $label, $* ($n recordings in 2 solves)"
}
recorded "mixed-precision full multigrid" -dim 3 -degree 1 -cells 128 -pc_type vpatchmg -fmg -ksp_type richardson -ksp_max_it 0
recorded " full multigrid" -dim 3 -degree 1 -cells 128 -pc_type vpatchmg -fmg -ksp_type richardson -ksp_max_it 0 -pc_vpatchmg_precision double
graphs -dim 3 -degree 2 -cells 32 -pc_type vpatchmg -pc_vpatchmg_precision double -pc_vpatchmg_cycle_type w -pc_vpatchmg_smooth_its 2 -pc_vpatchmg_sweep symmetric
graphs -dim 2 -degree 5 -cells 256 -pc_type vpatchmg -ksp_type cg -pc_vpatchmg_sweep symmetric
graphs -dim 3 -degree 3 -cells 32 -pc_type vpatchmg -ksp_type cg -pc_vpatchmg_symmetric_cycle
# two ranks on one GPU: ghost exchange of device arrays (CUDA IPC, the default on one host)
c=$(mpiexec -n 1 $P -dim 3 -degree 3 -refine 3 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -dm_vec_type cuda | grep '^summary:' | field iterations)
g=$(mpiexec --oversubscribe -n 2 $P -dim 3 -degree 3 -refine 3 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -dm_vec_type cuda | grep '^summary:' | field iterations)
[ -n "$c" ] && [ "$c" = "$g" ] && ok "2 ranks on the GPU: iterations $c/$g" || bad "2 ranks on the GPU: iterations $c/$g"
# the float cycle on 2 ranks: float ghost sums (PETSc's device PetscSF has no MPI_SUM for MPI_FLOAT)
c=$(mpiexec -n 1 $P -dim 3 -degree 3 -cells 16 -pc_type vpatchmg -fmg -dm_vec_type cuda | grep '^summary:' | field iterations)
g=$(mpiexec --oversubscribe -n 2 $P -dim 3 -degree 3 -cells 16 -pc_type vpatchmg -fmg -dm_vec_type cuda | grep '^summary:' | field iterations)
[ -n "$c" ] && [ "$c" = "$g" ] && ok "2 ranks on the GPU, mixed full multigrid: iterations $c/$g" || bad "2 ranks on the GPU, mixed full multigrid: iterations $c/$g"
# the same with Richardson (PCVPATCHMG's refinement steps: their float residuals' norms summed over the ranks)
c=$(mpiexec -n 1 $P -dim 3 -degree 3 -cells 16 -pc_type vpatchmg -fmg -ksp_type richardson -dm_vec_type cuda | grep '^summary:' | field iterations)
g=$(mpiexec --oversubscribe -n 2 $P -dim 3 -degree 3 -cells 16 -pc_type vpatchmg -fmg -ksp_type richardson -dm_vec_type cuda | grep '^summary:' | field iterations)
[ -n "$c" ] && [ "$c" = "$g" ] && ok "2 ranks on the GPU, mixed Richardson: iterations $c/$g" || bad "2 ranks on the GPU, mixed Richardson: iterations $c/$g"

echo "== no host-device copies inside KSPSolve beyond scalars (reduction results)"
$P -dim 3 -degree 4 -refine 4 -pc_type mg -pc_mg_levels 4 -mg_levels_pc_type vpatch -dm_vec_type cuda -log_view -log_view_gpu_time > $LOG/logview_mg.txt 2>&1
$P -dim 3 -degree 4 -refine 4 -pc_type vpatchmg -dm_vec_type cuda -log_view -log_view_gpu_time > $LOG/logview_vpatchmg.txt 2>&1
for f in $LOG/logview_mg.txt $LOG/logview_vpatchmg.txt; do
  # columns of the KSPSolve line: ... CpuToGpu Count Size GpuToCpu Count Size GPU %F
  line=$(grep -E '^KSPSolve ' $f | head -1)
  # last columns: GPU Mflop/s, CpuToGpu count, size [MB], GpuToCpu count, size [MB], %F
  bytes=$(echo "$line" | awk '{printf "%d", ($(NF-3)+$(NF-1))*1e6}')
  counts=$(echo "$line" | awk '{print $(NF-4)"+"$(NF-2)}')
  [ -n "$line" ] && [ "$bytes" -le 1024 ] && ok "$(basename $f): KSPSolve copies $counts, $bytes bytes in all (scalars)" || bad "$(basename $f): KSPSolve line: $line"
done

echo "== compute-sanitizer"
# sanitize NAME TOOL COMMAND...: COMMAND under compute-sanitizer's TOOL (log
# sanitizer_TOOL_NAME.log); memcheck also finds what is left allocated on the device at exit
sanitize() {
  local name=$1 tool=$2 leak=()
  shift 2
  local log=$LOG/sanitizer_${tool}_$name.log
  [ "$tool" = memcheck ] && leak=(--leak-check full)
  $CS --tool $tool "${leak[@]}" --error-exitcode 9 "$@" > $log 2>&1
  local rc=$?
  if [ $rc = 0 ] && { [ "$tool" != memcheck ] || grep -q 'LEAK SUMMARY: 0 bytes' $log; }; then ok "$tool $name"
  else bad "$tool $name (rc $rc): $(grep -m1 -E 'ERROR|Error|LEAK SUMMARY: [1-9]' $log)"; fi
}
sanitize solver memcheck $P -dim 3 -degree 3 -cells 4 -pc_type mg -pc_mg_levels 2 -mg_levels_pc_type vpatch -dm_vec_type cuda
# the single-precision hierarchy and the mixed full multigrid (double level solutions)
sanitize mixed_fmg memcheck $P -dim 3 -degree 3 -cells 4 -pc_type vpatchmg -fmg -dm_vec_type cuda
# full multigrid replayed from its recording up to the graph level (a float graph level below
# the finest: MixedFMG's recording; 3D k = 2 at 64 cells), mixed and double, two solves each
for prec in single double; do
  sanitize fmg_graph_$prec memcheck $P -dim 3 -degree 2 -cells 64 -pc_type vpatchmg -pc_vpatchmg_precision $prec -fmg -ksp_type richardson -ksp_max_it 0 -repeat 2 -dm_vec_type cuda
done
# mixed Richardson steps with the correction in the next residual's pass (3D k = 1: x + c
# stored from y to w and back, c's planes in the gather's ring)
sanitize richardson memcheck $P -dim 3 -degree 1 -cells 8 -pc_type vpatchmg -fmg -ksp_type richardson -dm_vec_type cuda
# the double Richardson tests' residual with its norm summed in the pass (OperatorResidualNorm:
# the cell-column kernel at 3D k = 3 under PCVPATCHMG, the gather at 3D k = 1 under PCVPATCH)
sanitize richardson_double memcheck $P -dim 3 -degree 3 -cells 4 -pc_type vpatchmg -pc_vpatchmg_precision double -ksp_type richardson -dm_vec_type cuda
sanitize richardson_vpatch memcheck $P -dim 3 -degree 1 -cells 8 -pc_type vpatch -ksp_type richardson -ksp_max_it 20 -dm_vec_type cuda
# k = 1 color pairs with rows of several warps (131 patch vertices: 3 warps exchanging edge
# values in shared memory), symmetric sweeps, two V-cycles of three levels
for tool in memcheck racecheck; do
  sanitize k1_pairs $tool $P -dim 2 -degree 1 -cells 132 -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type vpatch -mg_levels_pc_vpatch_sweep symmetric -ksp_max_it 2 -dm_vec_type cuda
done
# the C API's checks on device vectors (error paths and retries among them)
sanitize mg_api memcheck $B/tests/multigrid/mg_api -dm_vec_type cuda
for run in "${kernel_runs[@]}"; do
  IFS=: read -r pid tool d <<< "$run"
  wait $pid; rc=$?; log=$LOG/sanitizer_${tool}_kernels_${d}d.log
  [ $rc = 0 ] && ok "$tool kernels ${d}D: $(tail -1 $log)" || bad "$tool kernels ${d}D (rc $rc): $(grep -m1 -E 'ERROR|Error' $log)"
done
echo "$passes passed, $fails failed"
[ $fails = 0 ]
