#!/usr/bin/env bash
# The ghost exchanges of a multiplicative vertex-patch sweep on several ranks: one for b, none
# for x from zero, and between two colors only where their parities differ in a direction
# split between ranks (the in-place sweep, src/petsc/sweep_halo.hpp, LevelOps::sweep_in_place);
# the scatter route exchanged twice per color (the corrections summed into their owners, the
# owners' values broadcast back). Reads the messages of the VPatchSmooth event from -log_view (all ranks'
# sends) and fails above MAX. COMMAND must run one smoother application (e.g. Richardson with
# one iteration and -pc_type vpatch).
# Usage: check_sweep_exchanges.sh MAX COMMAND [ARGS...] (COMMAND gets -log_view)
set -u
. "$(dirname "$0")/run_captured.sh"
max=$1
shift
run_captured 60 "$@" -log_view
[ $rc -eq 0 ] || { echo "FAILED: exit code $rc"; tail -20 "$out"; exit 1; }
msgs=$(awk '$1 == "VPatchSmooth" { printf "%d\n", $8 }' "$out" | head -1)
echo "VPatchSmooth messages: ${msgs:-none} (at most $max)"
[ -n "$msgs" ] || { echo "FAILED: no VPatchSmooth event in -log_view"; exit 1; }
[ "$msgs" -gt 0 ] || { echo "FAILED: no messages: is the level distributed?"; exit 1; }
[ "$msgs" -le "$max" ] || { echo "FAILED: more ghost exchanges than expected"; exit 1; }
echo "PASSED"
