// PETSc version differences (3.18 from Debian, 3.22 with CUDA).
#pragma once
#include <petscsys.h>
#include <petscversion.h>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(p, arg) PetscValidPointer(p, arg)
#endif
