/* A complete application of the installed plugin, in C: a Poisson problem of its own,
   -Laplace u = f on [0,1]^dim with u = g on the boundary (here u = 1 + x^2 y + y^4 [+ z^5]), on a
   vpatch DM's Q_k elements, solved by a Krylov method with vertex-patch multigrid, everything
   from the command line.

     mpiexec -n 2 ./app -degree 3 -cells 16 -pc_type mg -mg_levels_pc_type vpatch -ksp_monitor
     mpiexec -n 2 ./app -degree 3 -cells 16 -pc_type vpatchmg -ksp_type fgmres   (mixed precision)

   Build it against an installed vpatch with CMake (CMakeLists.txt beside this file:
   find_package(vpatch)) or pkg-config (`mpicc app.c $(pkg-config --cflags --libs vpatch)`,
   PKG_CONFIG_PATH naming <prefix>/lib/pkgconfig and PETSc's lib/pkgconfig). */
#include <vpatch.h>
#include <petscversion.h>
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

/* the exact solution, also the boundary values g */
static PetscErrorCode Exact(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  (void)time, (void)Nc, (void)ctx;
  u[0] = 1 + x[0] * x[0] * x[1] + x[1] * x[1] * x[1] * x[1] + (dim == 3 ? x[2] * x[2] * x[2] * x[2] * x[2] : 0);
  return PETSC_SUCCESS;
}

/* f = -Laplace u */
static PetscErrorCode Source(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *f, void *ctx)
{
  (void)time, (void)Nc, (void)ctx;
  f[0] = -(2 * x[1] + 12 * x[1] * x[1] + (dim == 3 ? 20 * x[2] * x[2] * x[2] : 0));
  return PETSC_SUCCESS;
}

int main(int argc, char **argv)
{
  DM                 dm;
  Mat                A;
  Vec                b, x;
  KSP                ksp;
  PetscInt           dim = 3, degree = 3, cells = 8, its;
  PetscReal          error;
  KSPConvergedReason reason;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-degree", &degree, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cells", &cells, NULL));
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, degree, cells, &dm));
  PetscCall(DMSetFromOptions(dm)); /* e.g. -dm_vec_type cuda */
  PetscCall(DMCreateMatrix(dm, &A)); /* the matrix-free Q_k Laplacian */
  PetscCall(DMCreateGlobalVector(dm, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VPatchFormRHS(dm, Source, Exact, NULL, b)); /* f and the boundary values */

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, dm)); /* PCMG coarsens it: every level down to 2 cells per direction */
  PetscCall(KSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));

  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(VPatchComputeL2Diff(dm, x, Exact, NULL, &error));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "vpatch %d.%d.%d: %" PetscInt_FMT " iterations (%s), L2 error %.3e\n", VPATCH_VERSION_MAJOR, VPATCH_VERSION_MINOR,
                        VPATCH_VERSION_PATCH, its, KSPConvergedReasons[reason], (double)error));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
