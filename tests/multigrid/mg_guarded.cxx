// Exceptions from vpatch code never cross a PETSc callback: Guarded<F>::call (src/petsc/compat.hpp,
// which every Mat and PC operation of the plugin goes through) returns a PETSc error instead, with
// PETSC_ERR_MEM for a failed allocation (std::bad_alloc, as src/cuda's device_malloc throws) and
// PETSC_ERR_LIB for anything else (a CUDA launch error is a std::runtime_error), and passes a
// PETSc error or success through unchanged. Exits non-zero on any violation.
#include "petsc/compat.hpp"
#include <cstdio>
#include <new>
#include <stdexcept>

static PetscErrorCode ThrowsBadAlloc(int) { throw std::bad_alloc(); }
static PetscErrorCode ThrowsRuntime(int) { throw std::runtime_error("vpatch cuda: a kernel launch failed (test)"); }
static PetscErrorCode ReturnsError(int) { return PETSC_ERR_ARG_WRONG; }
static PetscErrorCode Succeeds(int x) { return x == 7 ? PETSC_SUCCESS : PETSC_ERR_ARG_OUTOFRANGE; }

int main(int argc, char **argv)
{
  int failures = 0;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  const struct {
    const char *what;
    PetscErrorCode got, want;
  } cases[] = {{"std::bad_alloc", vpatch::Guarded<ThrowsBadAlloc>::call(7), PETSC_ERR_MEM},
               {"std::runtime_error", vpatch::Guarded<ThrowsRuntime>::call(7), PETSC_ERR_LIB},
               {"a PETSc error", vpatch::Guarded<ReturnsError>::call(7), PETSC_ERR_ARG_WRONG},
               {"success (the argument passed on)", vpatch::Guarded<Succeeds>::call(7), PETSC_SUCCESS}};
  PetscCall(PetscPopErrorHandler());
  for (const auto &c : cases) {
    const bool ok = c.got == c.want;
    failures += !ok;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: Guarded call with %s returns %d (expected %d)\n", ok ? "ok" : "FAILED", c.what, (int)c.got, (int)c.want));
  }
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
