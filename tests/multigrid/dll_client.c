/* Test 7: a PETSc program NOT linked against libvpatch. With -dll_append <libvpatch.so>
   PETSc loads the plugin at PetscInitialize and calls PetscDLLibraryRegister_vpatch, which
   registers PCVPATCH: PCSetFromOptions with -pc_type vpatch then succeeds and PCGetType
   prints 'vpatch'. Without -dll_append the type is unknown and PCSetFromOptions fails.
   With -use_plugin the program also looks up VPatchCreateDM in the loaded libraries and
   solves a small problem with the plugin (options prefix plugin_), to show it is usable. */
#include <petscdm.h>
#include <petscksp.h>

typedef PetscErrorCode (*CreateDMFn)(MPI_Comm, PetscInt, PetscInt, PetscInt, DM *);
PETSC_EXTERN PetscDLLibrary PetscDLLibrariesLoaded;

int main(int argc, char **argv)
{
  PC        pc;
  PCType    type;
  PetscBool use_plugin = PETSC_FALSE;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-use_plugin", &use_plugin, NULL));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PCGetType(pc, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dll_client: pc type: %s\n", type ? type : "(none)"));
  PetscCall(PCDestroy(&pc));
  if (use_plugin) {
    void       *sym = NULL;
    CreateDMFn  create;
    DM          dm;
    Mat         A;
    Vec         b, x;
    KSP         ksp;
    PetscInt    its;
    PetscReal   rnorm;
    KSPConvergedReason reason;
    PetscCall(PetscDLLibrarySym(PETSC_COMM_WORLD, &PetscDLLibrariesLoaded, NULL, "VPatchCreateDM", &sym));
    PetscCheck(sym, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "VPatchCreateDM not found in the loaded libraries");
    create = (CreateDMFn)sym;
    PetscCall(create(PETSC_COMM_WORLD, 2, 3, 8, &dm));
    PetscCall(DMCreateMatrix(dm, &A));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(VecSet(b, 1.0));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOptionsPrefix(ksp, "plugin_"));
    PetscCall(KSPSetDM(ksp, dm));
    PetscCall(KSPSetDMActive(ksp, PETSC_FALSE));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetTolerances(ksp, 1e-9, PETSC_DEFAULT, PETSC_DEFAULT, 50));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCall(KSPGetResidualNorm(ksp, &rnorm));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dll_client: plugin solve: reason %s, iterations %d\n", KSPConvergedReasons[reason], (int)its));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "plugin solve did not converge");
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&dm));
  }
  PetscCall(PetscFinalize());
  return 0;
}
