// Self-check of check_malloc_dump.sh (discretization.malloc_dump.selfcheck_*): creates a
// vpatch DM, its operator and a vector, and frees them all, unless asked to leak:
//   -leak_malloc  leaks one PetscMalloc'ed block
//   -leak_dm      does not destroy the DM, the operator and the vector
// The test with a leak must be reported by the script (--expect-leak), the one without
// must not: so the leak detection of discretization.malloc_dump.* is known to work.
#include <petscversion.h>
#include <vpatch.h>

int main(int argc, char **argv)
{
  PetscBool leak_malloc = PETSC_FALSE, leak_dm = PETSC_FALSE;
  void *p = nullptr;
  DM dm;
  Mat A;
  Vec x, y;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "Self-check of the -malloc_dump leak detection"));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-leak_malloc", &leak_malloc, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-leak_dm", &leak_dm, nullptr));
  PetscCall(PetscMalloc(64, &p));
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, 2, 2, 4, &dm));
  PetscCall(VPatchCreateOperator(dm, &A));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecSet(x, 1.0));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(MatMult(A, x, y));
  if (!leak_malloc) PetscCall(PetscFree(p));
  if (!leak_dm) {
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&dm));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "leak_malloc=%d leak_dm=%d\n", (int)leak_malloc, (int)leak_dm));
  PetscCall(PetscFinalize());
  return 0;
}
