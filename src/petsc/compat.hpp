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

// PETSc's function stack (debug builds): PetscFunctionBegin pushes a frame that
// PetscFunctionReturn pops, and PetscError (SETERRQ, a failing PetscCall) pops the erring
// function's. An exception unwinds the frames it crosses without either, and the next
// PetscFunctionReturn below would then find another function's frame on top (a debug PETSc
// aborts there). A StackMark taken before code that may throw drops them where the exception
// is caught (unwind), or stands in a frame for the catching site that PetscError pops as the
// erring function's (raise).
class StackMark {
public:
#if defined(PETSC_USE_DEBUG) && !defined(PETSC_HAVE_THREADSAFETY)
  StackMark() : depth_(petscstack.currentsize) {}
  void unwind() const
  {
    while (petscstack.currentsize > depth_) PetscStackClearTop;
  }
#else
  void unwind() const {}
#endif
  // PetscError(n, "vpatch: what") from the catching site (func, file, line)
  PetscErrorCode raise(const char *func, const char *file, int line, PetscErrorCode n, const char *what) const
  {
    unwind();
    PetscStackPushNoCheck(func, 1, PETSC_FALSE);
    return PetscError(PETSC_COMM_SELF, line, func, file, n, PETSC_ERROR_INITIAL, "vpatch: %s", what);
  }

private:
#if defined(PETSC_USE_DEBUG) && !defined(PETSC_HAVE_THREADSAFETY)
  int depth_;
#endif
};

// A PETSc callback (Mat or PC operation, composed function) whose body may reach code that
// throws (src/cuda throws on any CUDA error: a failed launch, a kernel image missing for the
// GPU, a shared-memory limit, a fault of earlier work): Guarded<F>::call is F with every
// exception turned into a PETSc error, since none may cross into PETSc's C code (and PETSc's
// function stack as F found it).
template <auto F>
struct Guarded;
template <typename... A, PetscErrorCode (*F)(A...)>
struct Guarded<F> {
  static PetscErrorCode call(A... a)
  {
    const StackMark mark;
    try {
      return F(a...);
    } catch (const std::exception &e) {
      return mark.raise(PETSC_FUNCTION_NAME, __FILE__, __LINE__, ExceptionErrorCode(e), e.what());
    } catch (...) {
      return mark.raise(PETSC_FUNCTION_NAME, __FILE__, __LINE__, PETSC_ERR_LIB, "an unknown exception");
    }
  }
};
} // namespace vpatch
