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
} // namespace vpatch
