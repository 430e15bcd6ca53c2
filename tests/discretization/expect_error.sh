#!/usr/bin/env bash
# Runs COMMAND... and passes only if it
#   - exits with a non-zero code, and not by the timeout (VPATCH_TEST_TIMEOUT seconds,
#     default 30: a hang is a failure), and
#   - prints a PETSc error message ('PETSC ERROR:') that matches the extended regular
#     expression REGEX (grep -E), so that a crash or an unrelated error does not count.
# Usage: expect_error.sh REGEX COMMAND [ARGS...]
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 REGEX COMMAND [ARGS...]" >&2
  exit 2
fi
regex=$1
shift
. "$(dirname "$0")/run_captured.sh"
run_captured 30 "$@"
grep -v 'Configure options' "$out" | head -30
fail=0
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  echo "FAILED: no exit within ${timeout_s}s (hang?)"
  fail=1
elif [ $rc -eq 0 ]; then
  echo "FAILED: exit code 0, expected an error"
  fail=1
else
  echo "ok: exit code $rc (non-zero)"
fi
if grep 'PETSC ERROR:' "$out" | grep -E -q -- "$regex"; then
  echo "ok: a PETSc error message matches: $regex"
else
  echo "FAILED: no 'PETSC ERROR:' line matches: $regex"
  fail=1
fi
if [ $fail -ne 0 ]; then
  echo FAILED
  exit 1
fi
echo PASSED
