// The public API of PCVPATCH and PCVPATCHMG as a program uses it (the command-line tests go
// through examples/poisson). Each check prints "ok" or "FAILED" with what it compared; the
// program exits non-zero if any failed. Checks:
//   1. the local solver changed after a solve (setter, and options + KSPSetFromOptions), on
//      PCVPATCH and PCVPATCHMG: the PC is set up again and solves (the same iterations: the
//      dense inverse and fast diagonalization are the same patch solve);
//   2. -pc_vpatchmg_levels changed after a solve: the next solve has that many levels;
//   3. PCVPatchSet* on a PCVPATCHMG set its smoother (its view says so);
//   4. out-of-range enum values and damping: PETSC_ERR_ARG_OUTOFRANGE, settings unchanged;
//   5. level smoother defaults: with -mg_levels_pc_type vpatch (options) the level KSPs are
//      Richardson with one iteration, and the options database holds no -mg_levels_N_ksp_*
//      entry after setup; with vpatch chosen through the API, the level KSP keeps the type
//      and iteration count the program gave it.
#include <petscksp.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vpatch.h>
#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

static int failures = 0;

static PetscErrorCode Check(bool ok, const char *what)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", ok ? "ok" : "FAILED", what));
  if (!ok) ++failures;
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Problem {
  DM dm = nullptr;
  Mat A = nullptr;
  Vec b = nullptr, x = nullptr;
  PetscErrorCode create(PetscInt dim, PetscInt degree, PetscInt cells)
  {
    PetscFunctionBegin;
    PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, degree, cells, &dm));
    PetscCall(DMCreateMatrix(dm, &A));
    PetscCall(DMCreateGlobalVector(dm, &b));
    PetscCall(VecDuplicate(b, &x));
    PetscCall(VPatchFormSineRHS(dm, b));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscErrorCode destroy()
  {
    PetscFunctionBegin;
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&dm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // a KSP on A with the PC type given (a null prefix: the global options)
  PetscErrorCode ksp(KSPType type, PCType pctype, const char *prefix, KSP *ksp) const
  {
    PC pc;
    PetscFunctionBegin;
    PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
    PetscCall(KSPSetOptionsPrefix(*ksp, prefix));
    PetscCall(KSPSetDM(*ksp, dm));
    PetscCall(KSPSetDMActive(*ksp, PETSC_FALSE));
    PetscCall(KSPSetOperators(*ksp, A, A));
    PetscCall(KSPSetType(*ksp, type));
    PetscCall(KSPSetTolerances(*ksp, 1e-9, PETSC_DEFAULT, PETSC_DEFAULT, 100));
    PetscCall(KSPGetPC(*ksp, &pc));
    PetscCall(PCSetType(pc, pctype));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscErrorCode solve(KSP ksp, PetscInt *its) const
  {
    KSPConvergedReason reason;
    PetscFunctionBegin;
    PetscCall(VecZeroEntries(x));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, its));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    if (reason <= 0) *its = -1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
};

// Whether PCView's ASCII output contains text (written to a file by rank 0, which reads it:
// the PCs view only into ASCII viewers).
static PetscErrorCode ViewContains(PC pc, const char *text, bool *found)
{
  PetscViewer v;
  PetscMPIInt size, rank;
  int yes = 0;
  char name[64];
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscSNPrintf(name, sizeof(name), "mg_api_view_np%d.txt", (int)size));
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_WORLD, name, &v));
  PetscCall(PCView(pc, v));
  PetscCall(PetscViewerDestroy(&v));
  if (rank == 0) {
    std::ifstream f(name);
    std::stringstream view;
    view << f.rdbuf();
    yes = view.str().find(text) != std::string::npos;
  }
  PetscCallMPI(MPI_Bcast(&yes, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  *found = yes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 1. The local solver changed after a solve; mode 0: setter, 1: options.
static PetscErrorCode CheckSolverChange(const Problem &p, PCType type, int mode)
{
  KSP ksp;
  PC pc;
  PetscInt its0, its1;
  char what[160];
  PetscFunctionBegin;
  PetscCall(p.ksp(KSPGMRES, type, "api_", &ksp));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(p.solve(ksp, &its0));
  PetscCall(KSPGetPC(ksp, &pc));
  if (mode == 0) PetscCall(PCVPatchSetLocalSolverType(pc, PC_VPATCH_LOCAL_DENSE));
  else {
    PetscBool mg;
    PetscCall(PetscStrcmp(type, PCVPATCHMG, &mg));
    PetscCall(PetscOptionsSetValue(nullptr, mg ? "-api_pc_vpatchmg_local_solver" : "-api_pc_vpatch_local_solver", "dense"));
    PetscCall(KSPSetFromOptions(ksp));
  }
  PetscCall(p.solve(ksp, &its1));
  bool dense;
  PetscCall(ViewContains(pc, "dense inverse", &dense));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: local solver changed by %s after a solve: %d then %d iterations, view says dense", type,
                          mode == 0 ? "PCVPatchSetLocalSolverType" : "the options", (int)its0, (int)its1));
  PetscCall(Check(its0 > 0 && its1 == its0 && dense, what));
  PetscCall(PetscOptionsClearValue(nullptr, "-api_pc_vpatchmg_local_solver"));
  PetscCall(PetscOptionsClearValue(nullptr, "-api_pc_vpatch_local_solver"));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 2. and 3. on a PCVPATCHMG.
static PetscErrorCode CheckVPatchMG(const Problem &p)
{
  KSP ksp;
  PC pc;
  PetscInt its, levels0, levels1;
  char what[160];
  bool set;
  PetscFunctionBegin;
  PetscCall(p.ksp(KSPFGMRES, PCVPATCHMG, "api_", &ksp));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(p.solve(ksp, &its));
  PetscCall(PCVPatchMGGetLevels(pc, &levels0));
  PetscCall(PetscOptionsSetValue(nullptr, "-api_pc_vpatchmg_levels", "2"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(p.solve(ksp, &its));
  PetscCall(PCVPatchMGGetLevels(pc, &levels1));
  PetscCall(PetscSNPrintf(what, sizeof(what), "PCVPATCHMG: -pc_vpatchmg_levels 2 after a solve of %d levels: %d levels, the solve converges", (int)levels0,
                          (int)levels1));
  PetscCall(Check(levels0 > 2 && levels1 == 2 && its > 0, what));
  PetscCall(PetscOptionsClearValue(nullptr, "-api_pc_vpatchmg_levels"));
  PetscCall(PCVPatchSetSweepType(pc, PC_VPATCH_SWEEP_BACKWARD));
  PetscCall(PCVPatchSetDamping(pc, 0.5));
  PetscCall(PCVPatchSetCompositeType(pc, PC_VPATCH_MULTIPLICATIVE));
  PetscCall(p.solve(ksp, &its));
  PetscCall(ViewContains(pc, "sweep backward, damping 0.5", &set));
  PetscCall(Check(set && its > 0,
                  "PCVPATCHMG: PCVPatchSetSweepType(backward) and PCVPatchSetDamping(0.5) reach its smoother (view)"));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 4. Out-of-range arguments: an error, the settings unchanged.
static PetscErrorCode CheckBadArguments(const Problem &p)
{
  KSP ksp;
  PC pc;
  PetscErrorCode e[4];
  bool unchanged;
  PetscFunctionBegin;
  PetscCall(p.ksp(KSPGMRES, PCVPATCH, "api_", &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  e[0] = PCVPatchSetSweepType(pc, (PCVPatchSweepType)7);
  e[1] = PCVPatchSetCompositeType(pc, (PCVPatchCompositeType)5);
  e[2] = PCVPatchSetLocalSolverType(pc, (PCVPatchLocalSolverType)-1);
  e[3] = PCVPatchSetDamping(pc, -2.0);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ViewContains(pc, "multiplicative, sweep forward, damping 1", &unchanged));
  bool all = true;
  for (PetscErrorCode c : e) all = all && c == PETSC_ERR_ARG_OUTOFRANGE;
  PetscCall(Check(all && unchanged,
                  "PCVPATCH: sweep 7, type 5, local solver -1, damping -2: PETSC_ERR_ARG_OUTOFRANGE each, the settings unchanged"));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 5. Level smoother defaults; api: vpatch chosen through the API with Chebyshev(3) levels.
static PetscErrorCode CheckLevelDefaults(const Problem &p, bool api)
{
  KSP ksp, smoother;
  PC pc, spc;
  KSPType type;
  PetscInt maxit, its;
  PetscBool left, is_type;
  char what[200];
  PetscFunctionBegin;
  PetscCall(p.ksp(KSPGMRES, PCMG, api ? "apimg_" : "optmg_", &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCMGSetLevels(pc, 2, nullptr));
  if (api) {
    PetscCall(PCMGGetSmoother(pc, 1, &smoother));
    PetscCall(KSPSetType(smoother, KSPCHEBYSHEV));
    PetscCall(KSPSetTolerances(smoother, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 3));
    PetscCall(KSPGetPC(smoother, &spc));
    PetscCall(PCSetType(spc, PCVPATCH));
  } else PetscCall(PetscOptionsSetValue(nullptr, "-optmg_mg_levels_pc_type", "vpatch"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(p.solve(ksp, &its));
  PetscCall(PCMGGetSmoother(pc, 1, &smoother));
  PetscCall(KSPGetType(smoother, &type));
  PetscCall(KSPGetTolerances(smoother, nullptr, nullptr, nullptr, &maxit));
  PetscCall(PetscStrcmp(type, api ? KSPCHEBYSHEV : KSPRICHARDSON, &is_type));
  PetscCall(PetscOptionsHasName(nullptr, nullptr, api ? "-apimg_mg_levels_1_ksp_type" : "-optmg_mg_levels_1_ksp_type", &left));
  PetscCall(PetscSNPrintf(what, sizeof(what), "PCMG, vpatch levels chosen by %s: level KSP %s, max_it %d (expected %s, %d); no ksp_type left in the options; %d iterations",
                          api ? "the API" : "the options", type, (int)maxit, api ? "chebyshev" : "richardson", api ? 3 : 1, (int)its));
  PetscCall(Check(is_type && maxit == (api ? 3 : 1) && !left && its > 0, what));
  PetscCall(PetscOptionsClearValue(nullptr, "-optmg_mg_levels_pc_type"));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Problem p;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(VPatchInitializePackage());
  PetscCall(p.create(2, 3, 8));
  for (int mode = 0; mode < 2; ++mode) {
    PetscCall(CheckSolverChange(p, PCVPATCH, mode));
    PetscCall(CheckSolverChange(p, PCVPATCHMG, mode));
  }
  PetscCall(CheckVPatchMG(p));
  PetscCall(CheckBadArguments(p));
  PetscCall(CheckLevelDefaults(p, false));
  PetscCall(CheckLevelDefaults(p, true));
  PetscCall(p.destroy());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d check(s) failed\n", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
