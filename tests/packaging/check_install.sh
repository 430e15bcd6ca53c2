#!/usr/bin/env bash
# Installs the build in BUILD to a fresh prefix and builds examples/app against the installed
# plugin twice, with CMake (find_package(vpatch)) and with pkg-config (vpatch.pc), then runs
# both on 2 ranks: each must converge (and say so).
# (The pkg-config route needs an MPI C compiler wrapper and pkg-config; without them it is
# skipped, and said so.)
# Usage: check_install.sh SOURCE_DIR BUILD_DIR LIBDIR MPIEXEC CMAKE [MPICC] [PKG_CONFIG]
set -eu
src=$1 build=$2 libdir=$3 mpiexec=$4 cmake=$5 mpicc=${6:-} pkgconfig=${7:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cmake" --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in include/vpatch.h "$libdir/cmake/vpatch/vpatchConfig.cmake" "$libdir/pkgconfig/vpatch.pc"; do
  [ -e "$work/prefix/$f" ] || { echo "FAILED: $f not installed"; exit 1; }
done
"$cmake" -S "$src/examples/app" -B "$work/app" -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; echo "FAILED: find_package(vpatch)"; exit 1; }
"$cmake" --build "$work/app" > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAILED: building against vpatch::vpatch"; exit 1; }
apps=("$work/app/app")
if [ -n "$mpicc" ] && [ -n "$pkgconfig" ]; then
  export PKG_CONFIG_PATH="$work/prefix/$libdir/pkgconfig:${PKG_CONFIG_PATH:-}"
  # shellcheck disable=SC2046
  "$mpicc" "$src/examples/app/app.c" -o "$work/app_pc" $("$pkgconfig" --cflags --libs vpatch) || { echo "FAILED: building with pkg-config"; exit 1; }
  apps+=("$work/app_pc")
else
  echo "pkg-config route skipped: no MPI C compiler wrapper or pkg-config"
fi
for app in "${apps[@]}"; do
  out=$(timeout 60 "$mpiexec" --oversubscribe -n 2 "$app" -dim 2 -degree 3 -cells 16 -pc_type mg -mg_levels_pc_type vpatch 2>&1) || { echo "$out"; echo "FAILED: $app"; exit 1; }
  echo "$out"
  echo "$out" | grep -q "iterations (CONVERGED_RTOL)" || { echo "FAILED: $app did not converge"; exit 1; }
done
echo "PASSED: installed; ${#apps[@]} application(s) built against it converge"
