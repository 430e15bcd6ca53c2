#!/usr/bin/env bash
# Rank independence of the example: runs PROGRAM ARGS... under MPIEXEC on each rank count
# of RANKS (comma separated, the first one is the reference) and compares
#   - the summary line (the last line starting with 'summary:'): same dim, degree, cells,
#     levels, dofs and iterations; l2_error equal to 1e-10 relative (as printed: %.3e) or
#     'none' everywhere; rel_residual <= RTOL on every run; ranks= the rank count;
#   - the residual history (-ksp_monitor is added, printed with 13 digits): same length,
#     |r_i(n ranks) - r_i(reference)| <= 1e-10 r_0(reference) for every iteration i.
# Every run must exit 0 within TIMEOUT seconds (VPATCH_TEST_TIMEOUT, default 60).
# Usage: compare_ranks.sh MPIEXEC RANKS RTOL PROGRAM [ARGS...]
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 MPIEXEC RANKS RTOL PROGRAM [ARGS...]" >&2
  exit 2
fi
mpiexec=$1 ranks=$2 rtol=$3
shift 3
timeout_s=${VPATCH_TEST_TIMEOUT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

field() { # field KEY SUMMARYLINE
  echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1
}

ref=""
for n in ${ranks//,/ }; do
  out=$work/out.$n
  echo "+ $mpiexec --oversubscribe -n $n $* -ksp_monitor"
  timeout "$timeout_s" "$mpiexec" --oversubscribe -n "$n" "$@" -ksp_monitor >"$out" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAILED: exit code $rc on $n rank(s) (124: timeout after ${timeout_s}s); output:"
    tail -40 "$out"
    exit 1
  fi
  summary=$(grep '^summary:' "$out" | tail -1)
  if [ -z "$summary" ]; then
    echo "FAILED: no summary line on $n rank(s); output:"
    tail -40 "$out"
    exit 1
  fi
  echo "  $summary"
  sed -n 's/^ *\([0-9][0-9]*\) KSP Residual norm \([^ ]*\).*/\1 \2/p' "$out" >"$work/hist.$n"
  if [ ! -s "$work/hist.$n" ]; then
    echo "FAILED: no residual history (-ksp_monitor) on $n rank(s)"
    fail=1
  fi
  # per-run checks
  if [ "$(field ranks "$summary")" != "$n" ]; then
    echo "FAILED: summary says ranks=$(field ranks "$summary"), ran on $n"
    fail=1
  fi
  rr=$(field rel_residual "$summary")
  if ! awk -v r="$rr" -v t="$rtol" 'BEGIN { exit !(r != "" && r + 0 <= t + 0) }'; then
    echo "FAILED: rel_residual=$rr above the tolerance $rtol on $n rank(s)"
    fail=1
  else
    echo "  ok: rel_residual=$rr <= $rtol"
  fi
  if [ -z "$ref" ]; then
    ref=$n
    refsummary=$summary
    continue
  fi
  # comparisons with the reference run
  for key in dim degree cells levels dofs iterations; do
    a=$(field $key "$refsummary") b=$(field $key "$summary")
    if [ -z "$a" ] || [ "$a" != "$b" ]; then
      echo "FAILED: $key=$b on $n rank(s), $key=$a on $ref rank(s)"
      fail=1
    else
      echo "  ok: $key=$b on $n and $ref rank(s)"
    fi
  done
  a=$(field l2_error "$refsummary") b=$(field l2_error "$summary")
  if [ "$a" = none ] && [ "$b" = none ]; then
    echo "  ok: l2_error=none on $n and $ref rank(s)"
  elif awk -v a="$a" -v b="$b" 'BEGIN { if (a !~ /^[0-9.eE+-]+$/ || b !~ /^[0-9.eE+-]+$/) exit 1; d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= 1e-10 * s) }'; then
    echo "  ok: l2_error=$b on $n rank(s) equals $a on $ref rank(s) to 1e-10 relative (as printed)"
  else
    echo "FAILED: l2_error=$b on $n rank(s), l2_error=$a on $ref rank(s)"
    fail=1
  fi
  if awk -v ref="$work/hist.$ref" -v cur="$work/hist.$n" 'BEGIN {
        while ((getline line < ref) > 0) { split(line, f, " "); r[na++] = f[2] }
        while ((getline line < cur) > 0) { split(line, f, " "); c[nb++] = f[2] }
        if (na != nb || na == 0) { printf "  residual history lengths %d and %d\n", na, nb; exit 1 }
        worst = 0
        for (i = 0; i < na; ++i) { d = r[i] - c[i]; if (d < 0) d = -d; if (d > worst) { worst = d; wi = i } }
        printf "  max_i |r_i - r_i(ref)| / r_0(ref) = %.3e (iteration %d of %d)\n", worst / r[0], wi, na - 1
        exit !(worst <= 1e-10 * r[0]) }'; then
    echo "  ok: residual histories agree on $n and $ref rank(s)"
  else
    echo "FAILED: residual histories differ between $n and $ref rank(s)"
    paste "$work/hist.$ref" "$work/hist.$n" | head -40
    fail=1
  fi
done
if [ $fail -ne 0 ]; then
  echo "FAILED"
  exit 1
fi
echo "PASSED"
