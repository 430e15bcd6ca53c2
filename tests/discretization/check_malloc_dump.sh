#!/usr/bin/env bash
# Runs COMMAND... -malloc_dump -malloc_debug (the options are appended, so COMMAND may be
# "mpiexec -n 2 program args") and checks PETSc's report at PetscFinalize. PETSc 3.18
# prints one line per unfreed PetscMalloc on stdout, e.g.
#   [ 0] 64 bytes main() at leak.cxx:7
# (3.22: '[ 0] 64 bytes' alone, the allocating stack on the lines below) and still exits 0,
# so the lines themselves are what is checked (other PETSc versions also print
# '[0]Total space allocated ... bytes'; -malloc_debug adds corruption checks).
# Passes if the command exits 0 within VPATCH_TEST_TIMEOUT (default 60) seconds and prints
# no such line. With --expect-leak (the self-check of this script), passes only if it does.
# With --expect-summary, the output must also contain the example's 'summary:' line.
# Usage: check_malloc_dump.sh [--expect-leak] [--expect-summary] COMMAND [ARGS...]
set -u
expect_leak=0 expect_summary=0
while [ $# -gt 0 ]; do
  case $1 in
    --expect-leak) expect_leak=1; shift ;;
    --expect-summary) expect_summary=1; shift ;;
    *) break ;;
  esac
done
. "$(dirname "$0")/run_captured.sh"
run_captured 60 "$@" -malloc_dump -malloc_debug
leak_re='^\[ *[0-9]+\] *[0-9]+ bytes( |$)|Total space allocated|[Cc]orrupted memory|PetscMallocValidate'
grep -v 'Configure options' "$out" | tail -20
nleak=$(grep -E -c -- "$leak_re" "$out")
fail=0
if [ $rc -ne 0 ]; then
  echo "FAILED: exit code $rc (124: timeout after ${timeout_s}s)"
  fail=1
fi
if [ $expect_summary -eq 1 ] && ! grep -q '^summary:' "$out"; then
  echo "FAILED: no 'summary:' line"
  fail=1
fi
if [ $expect_leak -eq 1 ]; then
  if [ "$nleak" -gt 0 ]; then
    echo "ok: self-check: the deliberate leak was detected ($nleak line(s) matching the leak pattern)"
  else
    echo "FAILED: self-check: the deliberate leak was NOT detected by the pattern '$leak_re'"
    fail=1
  fi
else
  if [ "$nleak" -gt 0 ]; then
    echo "FAILED: -malloc_dump reports unfreed memory:"
    grep -E -- "$leak_re" "$out" | head -40
    fail=1
  else
    echo "ok: no unfreed PetscMalloc reported by -malloc_dump"
  fi
fi
if [ $fail -ne 0 ]; then
  echo FAILED
  exit 1
fi
echo PASSED
