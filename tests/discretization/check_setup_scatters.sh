#!/usr/bin/env bash
# Whether building the levels of a solve set up PetscSF graphs (the DMDA's global-to-local
# scatter of every point): EXPECT=absent on one rank, where no level needs them (Level makes
# its DMDA on first request only), present on several ranks, where they exchange the ghosts
# (the second case also shows that the -log_view check sees them when they are there).
# COMMAND must exit 0 within VPATCH_TEST_TIMEOUT (default 60 s).
# Usage: check_setup_scatters.sh absent|present COMMAND [ARGS...] (COMMAND gets -log_view)
set -u
. "$(dirname "$0")/run_captured.sh"
expect=$1
shift
run_captured 60 "$@" -log_view
grep '^summary:' "$out"
graphs=$(awk '$1 == "SFSetGraph" { print $2 }' "$out" | head -1)
echo "SFSetGraph calls: ${graphs:-0}"
[ $rc -eq 0 ] || { echo "FAILED: exit code $rc"; tail -20 "$out"; exit 1; }
case "$expect" in
  absent) [ -z "$graphs" ] || [ "$graphs" = 0 ] || { echo "FAILED: PetscSF graphs set up on one rank"; exit 1; } ;;
  present) [ -n "$graphs" ] && [ "$graphs" != 0 ] || { echo "FAILED: no PetscSF graph on several ranks (is -log_view read right?)"; exit 1; } ;;
  *) echo "usage: $0 absent|present COMMAND..."; exit 2 ;;
esac
echo "PASSED: PetscSF graphs $expect"
