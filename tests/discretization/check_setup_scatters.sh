#!/usr/bin/env bash
# Whether building the levels of a solve set up PetscSF graphs: EXPECT=absent on one rank,
# where no level needs them, present on several ranks, where they exchange the ghosts (the
# second case also shows that the -log_view check sees them when they are there); and in both
# cases that no level made a DMDA (its setup, a mapping and a scatter of every ghosted point,
# would show as an IS L to G Mapping object): Level makes its DMDA on request only.
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
grep -q "Star Forest Graph" "$out" || grep -q "Viewer" "$out" || { echo "FAILED: no object table in -log_view"; exit 1; }
mappings=$(awk '/IS L to G Mapping/ { for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+$/) { print $i; exit } }' "$out")
echo "IS L to G Mapping objects: ${mappings:-0}"
[ -z "$mappings" ] || [ "$mappings" = 0 ] || { echo "FAILED: a level made a DMDA"; exit 1; }
case "$expect" in
  absent) [ -z "$graphs" ] || [ "$graphs" = 0 ] || { echo "FAILED: PetscSF graphs set up on one rank"; exit 1; } ;;
  present) [ -n "$graphs" ] && [ "$graphs" != 0 ] || { echo "FAILED: no PetscSF graph on several ranks (is -log_view read right?)"; exit 1; } ;;
  *) echo "usage: $0 absent|present COMMAND..."; exit 2 ;;
esac
echo "PASSED: PetscSF graphs $expect"
