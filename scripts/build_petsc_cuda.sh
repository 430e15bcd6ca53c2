#!/usr/bin/env bash
# Builds PETSc 3.22.5 with CUDA (sm_90, H100/H200) from Debian's source tarball, with the
# small patches CUDA 13 needs. Usage: scripts/build_petsc_cuda.sh [prefix] [jobs]
# Needs: CUDA 13 at /usr/local/cuda, OpenMPI (mpicc/mpicxx), BLAS/LAPACK, python3, as root or with sudo.
set -euo pipefail
prefix=${1:-/opt/petsc-cuda}
jobs=${2:-$(nproc)}
work=${WORK:-/tmp/petsc-cuda-build}
mkdir -p "$work" && cd "$work"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo

tarball=petsc_3.22.5+dfsg1.orig.tar.xz
if [ ! -f "$tarball" ]; then
  # Debian trixie's source package; only the .orig tarball is needed (apt may fail on the
  # .dsc afterwards: check for the tarball, not the exit code).
  echo "deb-src http://deb.debian.org/debian trixie main" | $SUDO tee /etc/apt/sources.list.d/trixie-src.list >/dev/null
  $SUDO apt-get update -q || true
  apt-get source --download-only petsc=3.22.5+dfsg1-2 || true
  [ -f "$tarball" ] || { echo "could not download $tarball"; exit 1; }
fi
rm -rf petsc-3.22.5 && mkdir petsc-3.22.5 && tar -xJf "$tarball" -C petsc-3.22.5 --strip-components=1
cd petsc-3.22.5

# CUDA 13: NVTX is header-only, cudaDeviceProp lost clockRate/memoryClockRate, thrust lost
# unary_function, async/for_each.h and identity, cuFFT lost three error codes.
python3 - <<'PY'
import re, pathlib
def edit(path, fn):
    p = pathlib.Path(path); s = p.read_text(); t = fn(s)
    if t == s: print("warning: no change in", path)
    p.write_text(t)
edit("config/BuildSystem/config/packages/cuda.py", lambda s: s.replace("'libnvToolsExt.a', ", "").replace("'nvToolsExt.lib', ", "").replace(", 'libnvToolsExt.a'", "").replace(", 'nvToolsExt.lib'", ""))
edit("src/sys/logging/handler/impls/nvtx/lognvtx.c", lambda s: s.replace("#include <nvToolsExt.h>", "#include <nvtx3/nvToolsExt.h>"))
edit("src/sys/objects/device/impls/cupm/cupmdevice.cxx", lambda s: re.sub(r"prop_\.(memoryClockRate|clockRate)", "0", s))
edit("src/sys/classes/random/impls/curand/curand2.cu", lambda s: re.sub(r"\s*:\s*public\s+thrust::unary_function<[^>]*>", "", s))
edit("src/mat/impls/aij/seq/seqcusparse/aijcusparse.cu", lambda s: s.replace("#include <thrust/async/for_each.h>", "").replace("thrust::identity<PetscInt>()", "vpatch_identity()").replace("#include <thrust/iterator/constant_iterator.h>", "#include <thrust/iterator/constant_iterator.h>\nstruct vpatch_identity { __host__ __device__ PetscInt operator()(PetscInt i) const { return i; } };"))
edit("src/sys/error/err.c", lambda s: "\n".join(l for l in s.split("\n") if not re.search(r"CUFFT_(INCOMPLETE_PARAMETER_LIST|PARSE_ERROR|LICENSE_ERROR)", l)))
PY

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
./configure --with-cc=mpicc --with-cxx=mpicxx --with-fc=0 --with-debugging=0 --with-shared-libraries=1 --with-x=0 \
  --with-cuda=1 --with-cuda-dir=/usr/local/cuda --with-cuda-arch=90 \
  --COPTFLAGS=-O3 --CXXOPTFLAGS=-O3 --CUDAOPTFLAGS=-O3 --prefix="$prefix"
make -j"$jobs" all
$SUDO make install
echo "PETSc with CUDA installed in $prefix: export PETSC_DIR=$prefix PETSC_ARCH="
