// The discretization tests' check report: each compared quantity with its bounds, counted
// in `failures` (the program's exit code).
#pragma once
#include <petscsys.h>
#include <petscversion.h>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

namespace {

int failures = 0;

// value must lie in [lo, hi] (NaN fails)
PetscErrorCode Report(const char *what, PetscReal value, PetscReal lo, PetscReal hi)
{
  PetscFunctionBegin;
  const bool ok = value >= lo && value <= hi;
  if (!ok) ++failures;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-64s %.6e in [%.4g, %.4g] %s\n", what, (double)value, (double)lo, (double)hi, ok ? "ok" : "FAILED"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace
