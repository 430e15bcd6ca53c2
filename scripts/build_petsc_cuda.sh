#!/usr/bin/env bash
# Builds PETSc 3.22.5 with CUDA (sm_90, H100/H200) from Debian's source tarball, with the
# small patches CUDA 13 needs. Usage: scripts/build_petsc_cuda.sh [prefix] [jobs]
# (PETSC_DEBUGGING=1: a debug build, --with-debugging with -O0 -g host code, whose checks of the
#  function stack, vector locks and arguments the optimized build skips)
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

# CUDA 13: NVTX is header-only (no libnvToolsExt), thrust lost thrust::identity (and
# unary_function, async/for_each.h), cudaDeviceProp lost clockRate/memoryClockRate, cuFFT
# lost three error codes. Each edit applies only where the pattern is in this tarball
# (Debian's 3.22.5+dfsg1 needs the first two).
python3 - <<'PY'
import re, pathlib
def edit(path, pattern, repl, flags=0):
    p = pathlib.Path(path)
    if not p.exists(): return
    s = p.read_text(); t = re.sub(pattern, repl, s, flags=flags)
    if t != s: p.write_text(t); print("patched", path)
edit("config/BuildSystem/config/packages/cuda.py", r",\s*'(lib)?nvToolsExt\.(a|lib)'", "")
edit("src/sys/logging/handler/impls/nvtx/lognvtx.c", r"#include <nvToolsExt\.h>", "#include <nvtx3/nvToolsExt.h>")
ident = "struct petsc_identity_functor { template <class T> __host__ __device__ T operator()(const T &x) const { return x; } };\n"
for f in ["src/mat/impls/aij/seq/seqcusparse/aijcusparse.cu"]:
    edit(f, r"#include <thrust/async/for_each\.h>\n", "")
    p = pathlib.Path(f)
    if p.exists() and "thrust::identity" in p.read_text():
        s = p.read_text().replace("#include <petscconf.h>", "#include <petscconf.h>\n" + ident, 1)
        s = re.sub(r"thrust::identity<\w+>\(\)", "petsc_identity_functor()", s)
        p.write_text(s); print("patched", f)
edit("src/sys/classes/random/impls/curand/curand2.cu", r"\s*:\s*public\s+thrust::unary_function<[^>]*>", "")
edit("src/sys/objects/device/impls/cupm/cupmdevice.cxx", r"\b\w+\.(memoryClockRate|clockRate)\b", "0")
edit("src/sys/error/err.c", r"^.*CUFFT_(INCOMPLETE_PARAMETER_LIST|PARSE_ERROR|LICENSE_ERROR).*\n", "", re.M)
PY

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
debugging=${PETSC_DEBUGGING:-0}
opt=-O3; [ "$debugging" = 1 ] && opt="-O0 -g"
./configure --with-cc=mpicc --with-cxx=mpicxx --with-fc=0 --with-debugging="$debugging" --with-shared-libraries=1 --with-x=0 \
  --with-cuda=1 --with-cuda-dir=/usr/local/cuda --with-cuda-arch=90 \
  --COPTFLAGS="$opt" --CXXOPTFLAGS="$opt" --CUDAOPTFLAGS="${opt% -g}" --prefix="$prefix"
make -j"$jobs" all
$SUDO make install
echo "PETSc with CUDA installed in $prefix: export PETSC_DIR=$prefix PETSC_ARCH="
