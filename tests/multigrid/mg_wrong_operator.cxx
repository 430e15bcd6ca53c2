// Test 6: PCVPATCH given an operator that is not a vpatch MATSHELL must stop with a clear
// error ('PCVPATCH needs ...') and a non-zero exit, not crash. Modes (-mode):
//   aij     an AIJ 1D Laplacian, -pc_type vpatch from the command line (KSPSetFromOptions)
//   dm_aij  the vpatch operator converted to AIJ (MatComputeOperator), KSPSetOperators
//           with it, PCSetType(vpatch) in the code
//   one_cell the vpatch operator of a 1-cell mesh (no interior vertex, no patch)
//   ok      the vpatch operator itself: must succeed (the control case)
#include <petscksp.h>
#include <vpatch.h>

int main(int argc, char **argv)
{
  char mode[32] = "aij";
  PetscInt dim = 2;
  Mat A = nullptr, S = nullptr;
  DM dm = nullptr;
  Vec b, x;
  KSP ksp;
  PC pc;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(VPatchInitializePackage());
  PetscCall(PetscOptionsGetString(nullptr, nullptr, "-mode", mode, sizeof(mode), nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscBool aij, dm_aij, one_cell, ok;
  PetscCall(PetscStrcmp(mode, "aij", &aij));
  PetscCall(PetscStrcmp(mode, "dm_aij", &dm_aij));
  PetscCall(PetscStrcmp(mode, "one_cell", &one_cell));
  PetscCall(PetscStrcmp(mode, "ok", &ok));
  PetscCheck(aij || dm_aij || one_cell || ok, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "unknown -mode %s", mode);
  if (aij) {
    PetscInt n = 20, lo, hi;
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, nullptr, 2, nullptr, &A));
    PetscCall(MatGetOwnershipRange(A, &lo, &hi));
    for (PetscInt i = lo; i < hi; ++i) {
      PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
      if (i < n - 1) PetscCall(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  } else {
    PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, 2, one_cell ? 1 : 4, &dm));
    PetscCall(DMCreateMatrix(dm, &S));
    if (dm_aij) PetscCall(MatComputeOperator(S, MATAIJ, &A));
    else {
      A = S;
      PetscCall(PetscObjectReference((PetscObject)A));
    }
  }
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  if (!aij) PetscCall(PCSetType(pc, PCVPATCH));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve finished without error (mode %s)\n", mode));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&S));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
