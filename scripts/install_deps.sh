#!/usr/bin/env bash
# Installs what vpatch needs on Debian 12 (only what is missing): PETSc 3.18 (petsc-dev,
# with OpenMPI), CMake, a C++17 compiler, pkg-config; or the Debian packages named as
# arguments (e.g. petsc64-dev, PETSc with 64-bit indices).
set -euo pipefail
pkgs=(petsc-dev libopenmpi-dev openmpi-bin cmake g++ make pkg-config)
if [ $# -gt 0 ]; then pkgs=("$@"); fi
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
