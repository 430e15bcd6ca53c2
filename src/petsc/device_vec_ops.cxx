#include "device_vec_ops.hpp"
#include "logging.hpp"
#include "vec_access.hpp"
#if defined(VPATCH_HAVE_CUDA) && !defined(PETSC_USE_COMPLEX)
  #include "../cuda/vector_ops_cuda.hpp"
  #include <petsc/private/vecimpl.h>
  #include <exception>
  #include <vector>
#endif

namespace vpatch {

#if defined(VPATCH_HAVE_CUDA) && !defined(PETSC_USE_COMPLEX)
namespace {
// Device arrays of several vectors for reading, restored on every path.
class DeviceArrays {
public:
  explicit DeviceArrays(PetscInt n) : v_((size_t)n, nullptr), a_((size_t)n, nullptr) {}
  DeviceArrays(const DeviceArrays &) = delete;
  DeviceArrays &operator=(const DeviceArrays &) = delete;
  ~DeviceArrays()
  {
    for (size_t i = 0; i < v_.size(); ++i)
      if (v_[i]) (void)VecCUDARestoreArrayRead(v_[i], &a_[i]);
  }
  PetscErrorCode get(const Vec *v)
  {
    PetscFunctionBegin;
    for (size_t i = 0; i < v_.size(); ++i) {
      PetscCall(VecCUDAGetArrayRead(v[i], &a_[i]));
      v_[i] = v[i];
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const PetscScalar *const *data() const { return a_.data(); }

private:
  std::vector<Vec> v_;
  std::vector<const PetscScalar *> a_;
};

// f() (a call into src/cuda, which throws on a CUDA error) as a PETSc error code, so that the
// caller can close its log events before it returns the error.
template <typename F>
PetscErrorCode DeviceCall(F &&f)
{
  PetscFunctionBegin;
  try {
    f();
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: %s", e.what());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckDeviceVecs(Vec x, PetscInt nv, const Vec *y, const char *what)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < nv; ++j) {
    MemSpace s = MemSpace::Host;
    PetscCall(VecMemSpace(y[j], &s));
    PetscCheck(s == MemSpace::Device, PetscObjectComm((PetscObject)x), PETSC_ERR_ARG_WRONG, "%s: vector %" PetscInt_FMT " of the list is not a CUDA vector", what, j);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// val[j] = x . y[j] over this rank's entries (VecMDotBegin's local part)
PetscErrorCode DeviceMDotLocal(Vec x, PetscInt nv, const Vec y[], PetscScalar *val)
{
  PetscInt n;
  void *stream;
  const PetscScalar *xa;
  PetscFunctionBegin;
  PetscCall(CheckDeviceVecs(x, nv, y, "VecMDot"));
  PetscCall(PetscLogEventBegin(events.vec_mdot, x, 0, 0, 0));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(CurrentStream(MemSpace::Device, &stream));
  DeviceArrays ya(nv);
  PetscCall(ya.get(y));
  VecRead xr(x, MemSpace::Device);
  PetscCall(xr.get(&xa));
  PetscCall(PetscLogGpuTimeBegin());
  const PetscErrorCode ierr = DeviceCall([&] { cuda::multi_dot((size_t)n, xa, (int)nv, ya.data(), val, stream); });
  PetscCall(PetscLogGpuTimeEnd());
  if (ierr) PetscCall(PetscLogEventEnd(events.vec_mdot, x, 0, 0, 0));
  PetscCall(ierr);
  PetscCall(PetscLogGpuFlops(2.0 * n * nv));
  PetscCall(PetscLogGpuToCpuScalar(nv * sizeof(PetscScalar)));
  PetscCall(xr.restore());
  PetscCall(PetscLogEventEnd(events.vec_mdot, x, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// val[j] = x . y[j] over the communicator
PetscErrorCode DeviceMDot(Vec x, PetscInt nv, const Vec y[], PetscScalar *val)
{
  PetscMPIInt size;
  PetscFunctionBegin;
  PetscCall(DeviceMDotLocal(x, nv, y, val));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)x), &size));
  if (size > 1) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, val, (PetscMPIInt)nv, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y += sum_j alpha[j] x[j]
PetscErrorCode DeviceMAXPY(Vec y, PetscInt nv, const PetscScalar *alpha, Vec *x)
{
  PetscInt n;
  void *stream;
  PetscScalar *ya;
  PetscFunctionBegin;
  PetscCall(CheckDeviceVecs(y, nv, x, "VecMAXPY"));
  PetscCall(PetscLogEventBegin(events.vec_maxpy, y, 0, 0, 0));
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(CurrentStream(MemSpace::Device, &stream));
  VecWrite yw(y, MemSpace::Device, true);
  PetscCall(yw.get(&ya));
  DeviceArrays xa(nv);
  PetscCall(xa.get(x));
  PetscCall(PetscLogGpuTimeBegin());
  const PetscErrorCode ierr = DeviceCall([&] { cuda::multi_axpy((size_t)n, ya, (int)nv, alpha, xa.data(), stream); });
  PetscCall(PetscLogGpuTimeEnd());
  if (ierr) PetscCall(PetscLogEventEnd(events.vec_maxpy, y, 0, 0, 0));
  PetscCall(ierr);
  PetscCall(PetscLogGpuFlops(2.0 * n * nv));
  PetscCall(yw.restore());
  PetscCall(PetscLogEventEnd(events.vec_maxpy, y, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace
#endif

PetscErrorCode VecUseDeviceMultiOps(Vec v)
{
  PetscFunctionBegin;
#if defined(VPATCH_HAVE_CUDA) && !defined(PETSC_USE_COMPLEX)
  MemSpace s = MemSpace::Host;
  PetscBool on = PETSC_TRUE;
  PetscCall(VecMemSpace(v, &s));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-vpatch_device_vec_ops", &on, nullptr)); // (off: PETSc's own, for comparisons)
  if (s == MemSpace::Device && on) {
    v->ops->mdot = Guarded<DeviceMDot>::call;
    if (v->ops->mdot_local) v->ops->mdot_local = Guarded<DeviceMDotLocal>::call; // VecMDotBegin/End (pipelined Krylov methods)
    v->ops->maxpy = Guarded<DeviceMAXPY>::call;
  }
#else
  (void)v;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
