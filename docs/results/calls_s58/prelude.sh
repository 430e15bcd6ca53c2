# The fifty-eighth session's device calls start here (sourced from the repository root): the
# CUDA PETSc and the session's binaries unpacked, the environment of .carry/env.sh.
tar -xJf .carry/petsc-3.22.5-cuda13-sm90-openmpi-debian12.tar.xz -C /opt 2>/dev/null
tar -xJf .carry/s58/bins.tar.xz
source .carry/env.sh
export LD_LIBRARY_PATH=$PWD/build-cuda:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
