#!/usr/bin/env bash
# Runs two solver command lines (separated by a lone --) and passes when both print a
# summary line with the same iteration count and reach rel_residual <= 1e-9.
set -uo pipefail
a=(); b=(); side=a
for arg in "$@"; do
  if [ "$arg" = "--" ]; then side=b; continue; fi
  if [ $side = a ]; then a+=("$arg"); else b+=("$arg"); fi
done
ia=$("${a[@]}" 2>&1 | grep '^summary:') || { echo "FAILED: first run"; exit 1; }
ib=$("${b[@]}" 2>&1 | grep '^summary:') || { echo "FAILED: second run"; exit 1; }
echo "$ia"; echo "$ib"
na=$(echo "$ia" | sed -n 's/.* iterations=\([0-9]*\).*/\1/p'); nb=$(echo "$ib" | sed -n 's/.* iterations=\([0-9]*\).*/\1/p')
ra=$(echo "$ia" | sed -n 's/.* rel_residual=\([^ ]*\).*/\1/p'); rb=$(echo "$ib" | sed -n 's/.* rel_residual=\([^ ]*\).*/\1/p')
python3 -c "import sys; sys.exit(0 if float('$ra') <= 1e-9 and float('$rb') <= 1e-9 else 1)" || { echo "FAILED: residual"; exit 1; }
[ -n "$na" ] && [ "$na" = "$nb" ] && echo "ok: $na = $nb iterations" || { echo "FAILED: iterations $na != $nb"; exit 1; }
