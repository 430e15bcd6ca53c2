// PETSc version differences (3.18 from Debian, 3.22 with CUDA), and the PETSc error code of
// an exception caught where vpatch returns to PETSc.
#pragma once
#include <petscsys.h>
#include <petscversion.h>
#include <exception>
#include <new>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(p, arg) PetscValidPointer(p, arg)
#endif

namespace vpatch {
// PETSC_ERR_MEM for a failed allocation (host, or device: device_malloc throws a std::bad_alloc), else PETSC_ERR_LIB.
inline PetscErrorCode ExceptionErrorCode(const std::exception &e) { return dynamic_cast<const std::bad_alloc *>(&e) ? PETSC_ERR_MEM : PETSC_ERR_LIB; }

// A PETSc callback (Mat or PC operation, composed function) whose body may reach code that
// throws (src/cuda throws on any CUDA error: a failed launch, a kernel image missing for the
// GPU, a shared-memory limit, a fault of earlier work): Guarded<F>::call is F with every
// exception turned into a PETSc error, since none may cross into PETSc's C code.
template <auto F>
struct Guarded;
template <typename... A, PetscErrorCode (*F)(A...)>
struct Guarded<F> {
  static PetscErrorCode call(A... a)
  {
    try {
      return F(a...);
    } catch (const std::exception &e) {
      return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, ExceptionErrorCode(e), PETSC_ERROR_INITIAL, "vpatch: %s", e.what());
    } catch (...) {
      return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_LIB, PETSC_ERROR_INITIAL, "vpatch: an unknown exception");
    }
  }
};
} // namespace vpatch
