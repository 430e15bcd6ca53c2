#!/usr/bin/env bash
# Call I: the final library: tests/gpu/run_checks.sh without the kernel tests and their
# sanitizer runs (RUN_CHECKS_KERNELS=0; the kernel tests ran in calls E, H), with the new
# memcheck of the mixed Richardson one-pass path.
set -u
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s50/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
RUN_CHECKS_KERNELS=0 timeout 430 tests/gpu/run_checks.sh build-cuda /tmp/checks; echo "rc=$?"
