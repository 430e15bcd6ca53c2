static const char help[] = "Solves -Laplace u = f on [0,1]^d, u = prod_i sin(pi x_i) (or u = g on the boundary), with Q_k elements on a uniform mesh\n"
                           "(matrix-free operator, vertex-patch multigrid). Options:\n"
                           "  -dim <2|3>        space dimension (default 3)\n"
                           "  -degree <k>       polynomial degree 1..10 (default 2)\n"
                           "  -cells <N>        cells per direction (default 8)\n"
                           "  -refine <L>       alternatively N = 2^L\n"
                           "  -rhs <sine|one|exp> f for u = prod sin(pi x_i) (default; L2 error reported), f = 1, or\n"
                           "                    u = exp(x + 2y [+ z/2]) with its nonzero boundary values (L2 error reported)\n"
                           "  -fmg              full multigrid first (paper Algorithm 2.2; needs -pc_type vpatchmg), then the Krylov solve\n"
                           "                    (KSPGuess vpatchfmg: -ksp_guess_type vpatchfmg is the same in any program)\n"
                           "  -repeat <n>       solve n times (each from scratch), report the fastest solve\n"
                           "  -view_solution    print the solution vector\n"
                           "Any -ksp_* and -pc_* option applies, e.g. -ksp_type cg -pc_type jacobi, or\n"
                           "  -pc_type mg -pc_mg_levels 4 -mg_levels_pc_type vpatch     (double-precision PCMG)\n"
                           "  -pc_type vpatchmg [-pc_vpatchmg_precision single|double] (float cycle: mixed precision)\n"
                           "The default Krylov method is FGMRES: GMRES that keeps the preconditioned vectors, so the\n"
                           "true residual reaches the tolerance also with the float cycle.\n"
                           "The last line printed is the summary: line (key=value pairs).\n";

#include <vpatch.h>
#include <petscdevice.h>
#include <cmath>
#include <cstring>
#include <petscversion.h>
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

// The error handler of the norm probe below: silent for the KSP's refusal of the norm type
// (PETSC_ERR_SUP from KSPSetUpNorms_Private, before any setup work), every other error traced
// as by PETSc's default handler.
static PetscErrorCode NormProbe(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  PetscBool *refused = (PetscBool *)ctx;
  if (p == PETSC_ERROR_INITIAL) *refused = (PetscBool)(n == PETSC_ERR_SUP && fun && !std::strcmp(fun, "KSPSetUpNorms_Private"));
  return *refused ? n : PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, nullptr);
}

// -rhs exp: u = exp(x + 2y [+ z/2]), also the Dirichlet data, and f = -Laplace u
static PetscErrorCode Exponential(PetscInt dim, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *)
{
  u[0] = std::exp(x[0] + 2 * x[1] + (dim == 3 ? x[2] / 2 : 0.0));
  return PETSC_SUCCESS;
}

static PetscErrorCode MinusLaplaceExponential(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nc, PetscScalar *f, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Exponential(dim, t, x, nc, f, ctx));
  f[0] *= -(dim == 3 ? 5.25 : 5.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt dim = 3, degree = 2, cells = 8, refine = -1, its, levels = 1, repeat = 1;
  PetscBool view = PETSC_FALSE, fmg = PETSC_FALSE, ismg, isvpmg, iscuda, set, cells_set, isgmres, preonly, refused = PETSC_FALSE;
  const char *const rhs_types[] = {"sine", "one", "exp", "RHSType", "RHS_", nullptr};
  PetscInt rhs = 0;
  PetscMPIInt size;
  PetscLogDouble t0, t1, t2;
  PetscReal rnorm, bnorm, error;
  KSPConvergedReason reason;
  DM dm;
  Mat A;
  Vec b, x, r;
  KSP ksp;
  PC pc;
  VecType vtype;

  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(VPatchInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "vpatch Poisson example", nullptr);
  PetscCall(PetscOptionsInt("-dim", "Space dimension (2 or 3)", nullptr, dim, &dim, nullptr));
  PetscCall(PetscOptionsInt("-degree", "Polynomial degree k of the Q_k elements (1..10)", nullptr, degree, &degree, nullptr));
  PetscCall(PetscOptionsInt("-cells", "Cells per direction", nullptr, cells, &cells, &cells_set));
  PetscCall(PetscOptionsInt("-refine", "Refinement level L: 2^L cells per direction", nullptr, refine, &refine, &set));
  PetscCheck(!set || refine >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-refine must be at least 0, not %" PetscInt_FMT, refine);
  PetscCheck(!set || !cells_set, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-refine and -cells both set the mesh: give one of them");
  PetscCall(PetscOptionsEList("-rhs", "Right-hand side", nullptr, rhs_types, 3, rhs_types[rhs], &rhs, nullptr));
  PetscCall(PetscOptionsInt("-repeat", "Number of solves (the fastest is reported)", nullptr, repeat, &repeat, nullptr));
  PetscCheck(repeat >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-repeat must be at least 1, not %" PetscInt_FMT, repeat);
  PetscCall(PetscOptionsBool("-fmg", "Full multigrid initial guess (needs -pc_type vpatchmg)", nullptr, fmg, &fmg, nullptr));
  PetscCall(PetscOptionsBool("-view_solution", "Print the solution vector", nullptr, view, &view, nullptr));
  PetscOptionsEnd();
  if (refine >= 0) {
    PetscCheck(refine <= 20, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-refine must be at most 20, not %" PetscInt_FMT, refine);
    cells = (PetscInt)1 << refine;
  }

  PetscCall(PetscTime(&t0));
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, degree, cells, &dm));
  PetscCall(DMSetFromOptions(dm));
  PetscCall(DMViewFromOptions(dm, nullptr, "-dm_view"));
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(DMCreateGlobalVector(dm, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  if (rhs == 0) PetscCall(VPatchFormSineRHS(dm, b));
  else if (rhs == 1) PetscCall(VPatchFormConstantRHS(dm, b));
  else PetscCall(VPatchFormRHS(dm, MinusLaplaceExponential, Exponential, nullptr, b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, dm));
  PetscCall(KSPSetDMActive(ksp, PETSC_FALSE)); /* the fine operator is A; PCMG builds the coarse ones from the DM */
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPFGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-9, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetFromOptions(ksp));
  /* Stop on the true residual ||b - Ax|| / ||b|| as the paper does, unless told otherwise:
     GMRES then preconditions from the right. A method that cannot test that norm (MINRES,
     SYMMLQ, ...) refuses it in KSPSetUp, before any setup work: it keeps its own then. */
  PetscCall(PetscOptionsHasName(nullptr, nullptr, "-ksp_norm_type", &set));
  if (!set) {
    PetscErrorCode e;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)ksp, &isgmres, KSPGMRES, KSPFGMRES, KSPLGMRES, ""));
    PetscCall(PetscOptionsHasName(nullptr, nullptr, "-ksp_pc_side", &set));
    if (isgmres && !set) PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(PetscPushErrorHandler(NormProbe, &refused));
    e = KSPSetUp(ksp);
    PetscCall(PetscPopErrorHandler());
    if (refused) PetscCall(KSPSetNormType(ksp, KSP_NORM_DEFAULT));
    else PetscCall(e); /* any other error, traced as it happened (a second setup would start from its half-done state) */
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCVPATCHMG, &isvpmg));
  PetscCheck(!fmg || isvpmg, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-fmg needs -pc_type vpatchmg");
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
  if (fmg && !preonly) { /* each KSPSolve starts from full multigrid (KSPGuess vpatchfmg) */
    KSPGuess guess;
    PetscCall(KSPGetGuess(ksp, &guess));
    PetscCall(KSPGuessSetType(guess, KSPGUESSVPATCHFMG));
  }
  PetscCall(KSPSetUp(ksp));
  PetscCall(VecNorm(b, NORM_2, &bnorm)); /* b to the device (if it lives there) before the solve */
  PetscCall(VecGetType(x, &vtype));
  PetscCall(PetscStrbeginswith(vtype, "seqcuda", &iscuda));
  if (!iscuda) PetscCall(PetscStrbeginswith(vtype, "mpicuda", &iscuda));
  PetscCall(PetscTime(&t1));
  const PetscLogDouble tsetup = t1 - t0;
  PetscLogDouble     best = PETSC_MAX_REAL, total = 0;
  PetscDeviceContext dctx;
  for (PetscInt rep = 0; rep < repeat; ++rep) {
    PetscCall(PetscTime(&t1));
    if (fmg && preonly) PetscCall(PCVPatchMGApplyFull(pc, b, x)); /* -ksp_type preonly -fmg: full multigrid alone */
    else PetscCall(KSPSolve(ksp, b, x));
    if (iscuda) { /* the solve's device work is done (host vectors: no device to ask, a CUDA PETSc on a machine without a GPU) */
      PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
      PetscCall(PetscDeviceContextSynchronize(dctx));
    }
    PetscCall(PetscTime(&t2));
    best = PetscMin(best, t2 - t1);
    total += t2 - t1;
  }
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));

  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  if (rhs == 0) PetscCall(VPatchComputeSineL2Error(dm, x, &error));
  else if (rhs == 2) PetscCall(VPatchComputeL2Diff(dm, x, Exponential, nullptr, &error));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCMG, &ismg));
  if (ismg) PetscCall(PCMGGetLevels(pc, &levels));
  const char *precision = "double";
  if (isvpmg) {
    PCVPatchMGPrecision p;
    PetscCall(PCVPatchMGGetPrecision(pc, &p));
    if (p == PC_VPATCHMG_SINGLE) precision = "mixed";
    PetscCall(PCVPatchMGGetLevels(pc, &levels));
  }
  if (view) PetscCall(VecView(x, PETSC_VIEWER_STDOUT_WORLD));

  PetscInt dofs;
  char errstr[32] = "none";
  if (rhs != 1) PetscCall(PetscSNPrintf(errstr, sizeof(errstr), "%.3e", (double)error));
  PetscCall(VecGetSize(x, &dofs));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "summary: dim=%" PetscInt_FMT " degree=%" PetscInt_FMT " cells=%" PetscInt_FMT " levels=%" PetscInt_FMT " dofs=%" PetscInt_FMT
                        " ranks=%d iterations=%" PetscInt_FMT " rel_residual=%.3e l2_error=%s setup_s=%.4f solve_s=%.4f solve_avg_s=%.4f precision=%s device=%s"
                        " reason=%s\n",
                        dim, degree, cells, levels, dofs, (int)size, its, (double)(bnorm > 0 ? rnorm / bnorm : rnorm), errstr, tsetup, best, total / repeat,
                        precision, iscuda ? "cuda" : "cpu", fmg && preonly ? "FULL_MULTIGRID_ONLY" : KSPConvergedReasons[reason]));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
