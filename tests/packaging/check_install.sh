#!/usr/bin/env bash
# Installs the build in BUILD to a fresh prefix and builds examples/app against the installed
# plugin twice, with CMake (find_package(vpatch)) and with pkg-config (vpatch.pc), then runs
# both on 2 ranks: each must converge (and say so).
# Usage: check_install.sh SOURCE_DIR BUILD_DIR MPIEXEC
set -eu
src=$1 build=$2 mpiexec=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in include/vpatch.h lib/cmake/vpatch/vpatchConfig.cmake lib/pkgconfig/vpatch.pc; do
  [ -e "$work/prefix/$f" ] || { echo "FAILED: $f not installed"; exit 1; }
done
cmake -S "$src/examples/app" -B "$work/app" -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; echo "FAILED: find_package(vpatch)"; exit 1; }
cmake --build "$work/app" > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAILED: building against vpatch::vpatch"; exit 1; }
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
mpicc "$src/examples/app/app.c" -o "$work/app_pc" $(pkg-config --cflags --libs vpatch) || { echo "FAILED: building with pkg-config"; exit 1; }
for app in "$work/app/app" "$work/app_pc"; do
  out=$(timeout 60 "$mpiexec" --oversubscribe -n 2 "$app" -dim 2 -degree 3 -cells 16 -pc_type mg -mg_levels_pc_type vpatch 2>&1) || { echo "$out"; echo "FAILED: $app"; exit 1; }
  echo "$out"
  echo "$out" | grep -q "iterations (CONVERGED_RTOL)" || { echo "FAILED: $app did not converge"; exit 1; }
done
echo "PASSED: installed, found by CMake and pkg-config, both applications converge"
