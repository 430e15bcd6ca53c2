// Exceptions from vpatch code never cross a PETSc callback: Guarded<F>::call (src/petsc/compat.hpp,
// which every Mat and PC operation of the plugin goes through) returns a PETSc error instead, with
// PETSC_ERR_MEM for a failed allocation (std::bad_alloc, as src/cuda's device_malloc throws) and
// PETSC_ERR_LIB for anything else (a CUDA launch error is a std::runtime_error), and passes a
// PETSc error or success through unchanged. An exception that unwinds functions with
// PetscFunctionBegin leaves PETSc's function stack (debug builds) as the call found it: the depth
// is compared, and the cases run inside a PetscFunctionBeginUser frame whose PetscFunctionReturn
// a debug PETSc checks against the top of the stack (it aborts on a frame left over or popped
// twice). Exits non-zero on any violation.
#include "petsc/compat.hpp"
#include <cstdio>
#include <new>
#include <stdexcept>

static PetscErrorCode ThrowsBadAlloc(int) { throw std::bad_alloc(); }
static PetscErrorCode ThrowsRuntime(int) { throw std::runtime_error("vpatch cuda: a kernel launch failed (test)"); }
static PetscErrorCode ReturnsError(int) { return PETSC_ERR_ARG_WRONG; }
static PetscErrorCode Succeeds(int x) { return x == 7 ? PETSC_SUCCESS : PETSC_ERR_ARG_OUTOFRANGE; }
// a throw two PetscFunctionBegin frames down, as from a kernel launch inside a multigrid cycle
static PetscErrorCode Launches(int x)
{
  PetscFunctionBeginUser;
  if (x == 7) throw std::runtime_error("vpatch cuda: a kernel launch failed inside a cycle (test)");
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode Cycles(int x)
{
  PetscFunctionBeginUser;
  PetscCall(Launches(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// the depth of PETSc's function stack; -1 where PETSc keeps none (no debugging)
static int StackDepth()
{
#if defined(PETSC_USE_DEBUG) && !defined(PETSC_HAVE_THREADSAFETY)
  return petscstack.currentsize;
#else
  return -1;
#endif
}

static PetscErrorCode RunCases(int *failures)
{
  PetscFunctionBeginUser;
  const int depth = StackDepth();
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  const struct {
    const char *what;
    PetscErrorCode got, want;
    int depth; // after the call
  } cases[] = {{"std::bad_alloc", vpatch::Guarded<ThrowsBadAlloc>::call(7), PETSC_ERR_MEM, StackDepth()},
               {"std::runtime_error", vpatch::Guarded<ThrowsRuntime>::call(7), PETSC_ERR_LIB, StackDepth()},
               {"std::runtime_error through two PETSc frames", vpatch::Guarded<Cycles>::call(7), PETSC_ERR_LIB, StackDepth()},
               {"a PETSc error", vpatch::Guarded<ReturnsError>::call(7), PETSC_ERR_ARG_WRONG, StackDepth()},
               {"success (the argument passed on)", vpatch::Guarded<Succeeds>::call(7), PETSC_SUCCESS, StackDepth()},
               {"success through two PETSc frames", vpatch::Guarded<Cycles>::call(1), PETSC_SUCCESS, StackDepth()}};
  PetscCall(PetscPopErrorHandler());
  for (const auto &c : cases) {
    const bool ok = c.got == c.want && c.depth == depth;
    *failures += !ok;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: Guarded call with %s returns %d (expected %d), PETSc's stack depth %d after it (%d before)\n", ok ? "ok" : "FAILED",
                          c.what, (int)c.got, (int)c.want, c.depth, depth));
  }
  if (depth < 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "(a PETSc without debugging keeps no function stack: the depths are not checked)\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  int failures = 0;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(RunCases(&failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
