// The vpatch DM: a DMSHELL around a level (and, on request, its DMDA) that knows how to coarsen (by two,
// keeping the rank partition nested), interpolate (the Q_k MATSHELL) and create the
// level operator, so PCMG builds the whole hierarchy from the command line.
#include "../../include/vpatch.h"
#include "level.hpp"
#include "logging.hpp"
#include <cstring>
#include <petsc/private/dmimpl.h> // dm->ops->view
#include <petsc/private/pcimpl.h> // pc->ops->setfromoptions
#include <petsc/private/petscimpl.h>
#include <petscdmshell.h>
#include <petscksp.h>

namespace vpatch {

static PetscErrorCode GetLevel(DM dm, std::shared_ptr<Level> *level)
{
  PetscFunctionBegin;
  PetscCall(LevelQuery((PetscObject)dm, level));
  PetscCheck(*level, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "Not a vpatch DM (create it with VPatchCreateDM())");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Vectors of the DM's layout (the DMDA's ownership), in the DM's vector type, carrying the
// vpatch DM (PETSc's DM vector pools check it); the global ones view and load in the natural
// order (LevelCreateGlobalVec).
static PetscErrorCode CreateVector(DM dm, bool local, Vec *v)
{
  std::shared_ptr<Level> L;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(GetLevel(dm, &L));
  PetscCall(DMGetVecType(dm, &vtype));
  if (!local) {
    PetscCall(LevelCreateGlobalVec(L, vtype, dm, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const PetscInt n = (PetscInt)L->box.local_points();
  PetscCall(VecCreate(PETSC_COMM_SELF, v));
  PetscCall(VecSetSizes(*v, n, n));
  PetscCall(VecSetType(*v, vtype ? vtype : VECSTANDARD));
  PetscCall(VecSetDM(*v, dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateGlobalVector_VPatch(DM dm, Vec *v) { return CreateVector(dm, false, v); }
static PetscErrorCode CreateLocalVector_VPatch(DM dm, Vec *v) { return CreateVector(dm, true, v); }

// Ghost exchange through the level's DMDA (made on first use: a DMDA setup of every ghosted
// point; the solvers exchange through the level's own PetscSFs).
static PetscErrorCode GetDA(DM dm, DM *da)
{
  std::shared_ptr<Level> L;
  PetscFunctionBegin;
  PetscCall(GetLevel(dm, &L));
  PetscCall(LevelGetDA(*L, da));
  PetscFunctionReturn(PETSC_SUCCESS);
}
// The DMSHELL's global-to-local and local-to-global hooks: PETSc's own on the DMDA.
template <PetscErrorCode (*OnDA)(DM, Vec, InsertMode, Vec)>
static PetscErrorCode Exchange_VPatch(DM dm, Vec from, InsertMode mode, Vec to)
{
  DM da;
  PetscFunctionBegin;
  PetscCall(GetDA(dm, &da));
  PetscCall(OnDA(da, from, mode, to));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateMatrix_VPatch(DM dm, Mat *A)
{
  char      type[64];
  PetscBool set, shell;
  MatType   mtype;
  PetscFunctionBegin;
  // the operator is matrix-free: an assembled type asked for (-dm_mat_type, read by
  // DMSetFromOptions or not, or DMSetMatType) is an error, not ignored
  PetscCall(PetscOptionsGetString(((PetscObject)dm)->options, ((PetscObject)dm)->prefix, "-dm_mat_type", type, sizeof(type), &set));
  if (!set) {
    PetscCall(DMGetMatType(dm, &mtype));
    PetscCall(PetscStrncpy(type, mtype, sizeof(type)));
  }
  PetscCall(PetscStrcmp(type, MATSHELL, &shell));
  PetscCheck(shell, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP,
             "The vpatch DM's operator is matrix-free (MATSHELL, sum factorization); %s%sdm_mat_type %s is not supported (MatComputeOperator() assembles "
             "one for a small problem)",
             set ? "-" : "DMSetMatType: ", set && ((PetscObject)dm)->prefix ? ((PetscObject)dm)->prefix : "", type);
  PetscCall(VPatchCreateOperator(dm, A));
  PetscCall(MatSetDM(*A, dm)); // (DMCreateMatrix's contract; a debug PETSc checks it)
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateInterpolation_VPatch(DM dmc, DM dmf, Mat *P, Vec *rscale)
{
  PetscFunctionBegin;
  PetscCall(VPatchCreateInterpolation(dmc, dmf, P));
  // the restriction's row-sum scaling (for solutions, as SNESFAS restricts them), as a DMDA's
  if (rscale) PetscCall(DMCreateInterpolationScale(dmc, dmf, *P, rscale));
  PetscFunctionReturn(PETSC_SUCCESS);
}



static PetscErrorCode HasOption(PetscObject obj, const char *prefix, const char *name, PetscBool *has)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(obj->options, prefix, name, has));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -help: PCMG's KSPSetFromOptions listed the coarse PC's options while it still was PCMG's LU,
// and PETSc prints each prefix's "PC options" once, so the coarse vpatch PC's own options
// (-mg_coarse_pc_vpatch_*) get a block of their own, titled with what was chosen.
static PetscErrorCode HelpCoarseSolver(PC pc, const char *prefix)
{
  PetscBool help;
  PetscFunctionBegin;
  PetscCall(PetscOptionsHasHelp(((PetscObject)pc)->options, &help));
  if (!help) PetscFunctionReturn(PETSC_SUCCESS);
  PetscOptionsBegin(PetscObjectComm((PetscObject)pc), prefix, "PCMG coarse solver: -pc_type vpatch, chosen by the vpatch DM at setup (PCMG's LU cannot factor the matrix-free operator)", "PC");
  PetscCall(pc->ops->setfromoptions(pc, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The level operators already are the DM's matrices (DMCreateMatrix). Here the DM also
// makes one application of vpatch the default coarse solver of PCMG (an exact solve on 2
// cells per direction, a single patch) in place of PCMG's LU or redundant LU, which a
// matrix-free operator cannot factor, unless -mg_coarse_pc_type says otherwise. On a larger
// coarsest level (odd cell counts, fewer levels asked for, rank ranges that stop halving) one
// sweep is an approximate solve, and a forward one would make the cycle nonsymmetric (CG
// stalled on it, PCMG's cycle with symmetric sweeps or additive levels included): there the
// default sweep is symmetric, also for -mg_coarse_pc_type vpatch (-mg_coarse_pc_vpatch_sweep
// still chooses). (Where a program's or SNES's compute-operators function replaces this one,
// CoarsenHook_VPatch wraps theirs; where that gives an assembled Pmat, PETSc's default stays.)
static PetscErrorCode ComputeOperators_VPatch(KSP ksp, Mat, Mat B, void *)
{
  PC pc;
  const char *prefix;
  PetscBool has, sweep, factor, vpatch, shell;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSHELL, &shell));
  if (!shell) PetscFunctionReturn(PETSC_SUCCESS); // an assembled Pmat of a program's or SNES's function: PETSc's defaults apply
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
  const size_t len = prefix ? std::strlen(prefix) : 0;
  if (len >= 10 && !std::strcmp(prefix + len - 10, "mg_coarse_")) {
    PetscCall(HasOption((PetscObject)ksp, prefix, "-pc_type", &has));
    PetscCall(HasOption((PetscObject)ksp, prefix, "-pc_vpatch_sweep", &sweep));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &factor, PCLU, PCREDUNDANT, ""));
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCVPATCH, &vpatch));
    // PCMG's default (LU) or vpatch from the command line without a sweep: the DM's default
    // (a vpatch PC the program set keeps its sweep)
    if ((!has && factor) || (has && vpatch && !sweep)) {
      DM                     dm;
      std::shared_ptr<Level> L;
      PetscCall(PCSetType(pc, PCVPATCH));
      PetscCall(KSPGetDM(ksp, &dm));
      if (dm) PetscCall(LevelQuery((PetscObject)dm, &L));
      if (L && L->cells > 2) {
        PetscCall(PCVPatchSetSweepType(pc, PC_VPATCH_SWEEP_SYMMETRIC));
        PetscCall(PetscInfo(pc, "vpatch: the coarsest level has %" PetscInt_FMT " cells per direction, more than one patch: a symmetric sweep as its approximate solve\n", L->cells));
      }
      PetscCall(PCSetFromOptions(pc));
      if (!has) PetscCall(HelpCoarseSolver(pc, prefix)); // -mg_coarse_pc_type vpatch: PETSc listed them
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A program's compute-operators function (KSPSetComputeOperators) or SNES's replaces the
// DM's on the fine level, and PCMG's DMCoarsen copies it to the coarse levels (DMKSP's coarsen
// hook). The DM's own coarsen hook, registered after DMKSP's, wraps the coarse level's
// function so that the coarse-solver default still applies (the wrapper's record lives with
// the coarse DM).
struct WrappedOperators {
  PetscErrorCode (*func)(KSP, Mat, Mat, void *);
  void *ctx;
};

static PetscErrorCode ComputeOperators_Wrapped(KSP ksp, Mat A, Mat B, void *p)
{
  auto *w = static_cast<WrappedOperators *>(p);
  PetscFunctionBegin;
  PetscCall(w->func(ksp, A, B, w->ctx));
  PetscCall(ComputeOperators_VPatch(ksp, A, B, nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DestroyWrappedOperators(void *p)
{
  delete static_cast<WrappedOperators *>(p);
  return PETSC_SUCCESS;
}

static PetscInt Coarsenings(const Level &level);

static PetscErrorCode CoarsenHook_VPatch(DM, DM dmc, void *)
{
  PetscErrorCode (*func)(KSP, Mat, Mat, void *);
  void *ctx;
  PetscContainer c;
  std::shared_ptr<Level> coarse;
  PetscFunctionBegin;
  // (DMCoarsen gave the coarse DM the fine one's refinement level after Coarsen_VPatch)
  PetscCall(GetLevel(dmc, &coarse));
  PetscCall(DMSetRefineLevel(dmc, Coarsenings(*coarse)));
  PetscCall(DMKSPGetComputeOperators(dmc, &func, &ctx));
  if (!func || func == ComputeOperators_VPatch) PetscFunctionReturn(PETSC_SUCCESS);
  if (func == ComputeOperators_Wrapped) { // a finer level's wrapper: wrap what it wraps, with a record of this DM's own
    const auto *w = static_cast<const WrappedOperators *>(ctx);
    func = w->func;
    ctx = w->ctx;
  }
  auto *w = new WrappedOperators{func, ctx};
  PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)dmc), &c));
  PetscCall(PetscContainerSetPointer(c, w));
  PetscCall(PetscContainerSetUserDestroy(c, DestroyWrappedOperators));
  PetscCall(PetscObjectCompose((PetscObject)dmc, "vpatch_wrapped_operators", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscCall(DMKSPSetComputeOperators(dmc, ComputeOperators_Wrapped, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateDMFromLevel(const std::shared_ptr<Level> &level, VecType vtype, DM *dm);

static PetscErrorCode Coarsen_VPatch(DM dmf, MPI_Comm, DM *dmc)
{
  std::shared_ptr<Level> fine, coarse;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(GetLevel(dmf, &fine));
  PetscCall(LevelCoarsen(*fine, &coarse));
  PetscCall(DMGetVecType(dmf, &vtype));
  PetscCall(CreateDMFromLevel(coarse, vtype, dmc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// How many times the level coarsens (DMCoarsen): halving the cells down to 2 per direction
// while every rank's cell range stays even. As the DM's refinement level it is what PCMG
// takes for its number of levels (minus one) when -pc_mg_levels is not given, as for a DMDA
// refined by -da_refine.
static PetscInt Coarsenings(const Level &level)
{
  PetscInt n = 0, cells = level.cells, unit = 1; // every range a multiple of 2 unit to coarsen
  while (cells % 2 == 0 && cells > 2) {
    bool nested = true;
    for (PetscInt d = 0; d < level.dim; ++d)
      for (PetscInt c : level.cell_ranges[d]) nested = nested && c % (2 * unit) == 0;
    if (!nested) break;
    cells /= 2;
    unit *= 2;
    ++n;
  }
  return n;
}

// DMView (-dm_view where a program calls DMViewFromOptions): the mesh, the element, the ranks'
// grid and the depth (DMSHELL's own view names its type alone).
static PetscErrorCode View_VPatch(DM dm, PetscViewer viewer)
{
  std::shared_ptr<Level> L;
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(GetLevel(dm, &L));
  size_t parts[3] = {1, 1, 1}; // from the cell ranges every rank holds: no communication (a SELF viewer on one rank)
  for (PetscInt d = 0; d < L->dim; ++d) parts[d] = L->cell_ranges[d].size() - 1;
  const PetscInt n = L->points_per_direction();
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "vpatch: Q%" PetscInt_FMT " elements on [0,1]^%" PetscInt_FMT ", %" PetscInt_FMT " cells per direction, %" PetscInt_FMT
                                           " Gauss-Lobatto support points per direction (%" PetscInt_FMT " unknowns, the Dirichlet boundary's included)\n",
                                   L->degree, L->dim, L->cells, n, L->global_points()));
  if (L->dim == 2) PetscCall(PetscViewerASCIIPrintf(viewer, "ranks: %zu x %zu blocks of cells; coarsens %" PetscInt_FMT " times\n", parts[0], parts[1], Coarsenings(*L)));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "ranks: %zu x %zu x %zu blocks of cells; coarsens %" PetscInt_FMT " times\n", parts[0], parts[1], parts[2], Coarsenings(*L)));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUpShell(const std::shared_ptr<Level> &level, VecType vtype, DM dm);

// DMClone: a vpatch DM of the same level (DMSHELL's clone left a DM without a type or
// operations). DMClone has created *newdm; it becomes the shell.
static PetscErrorCode Clone_VPatch(DM dm, DM *newdm)
{
  std::shared_ptr<Level> level;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(GetLevel(dm, &level));
  PetscCall(DMGetVecType(dm, &vtype));
  PetscCall(DMSetType(*newdm, DMSHELL));
  PetscCall(SetUpShell(level, vtype, *newdm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A DMSHELL made the vpatch DM of level.
static PetscErrorCode SetUpShell(const std::shared_ptr<Level> &level, VecType vtype, DM dm)
{
  PetscFunctionBegin;
  dm->ops->view  = View_VPatch;
  dm->ops->clone = Clone_VPatch;
  PetscCall(DMSetRefineLevel(dm, Coarsenings(*level)));
  PetscCall(LevelCompose((PetscObject)dm, level));
  PetscCall(DMSetDimension(dm, level->dim));
  if (vtype) PetscCall(DMSetVecType(dm, vtype));
  PetscCall(DMSetMatType(dm, MATSHELL)); // (DMSHELL's default reads dense, in -help and DMGetMatType)
  PetscCall(DMShellSetCreateGlobalVector(dm, CreateGlobalVector_VPatch));
  PetscCall(DMShellSetCreateLocalVector(dm, CreateLocalVector_VPatch));
  PetscCall(DMShellSetGlobalToLocal(dm, Exchange_VPatch<DMGlobalToLocalBegin>, Exchange_VPatch<DMGlobalToLocalEnd>));
  PetscCall(DMShellSetLocalToGlobal(dm, Exchange_VPatch<DMLocalToGlobalBegin>, Exchange_VPatch<DMLocalToGlobalEnd>));
  PetscCall(DMShellSetCreateMatrix(dm, CreateMatrix_VPatch));
  PetscCall(DMShellSetCreateInterpolation(dm, CreateInterpolation_VPatch));
  PetscCall(DMShellSetCoarsen(dm, Coarsen_VPatch));
  PetscCall(DMKSPSetComputeOperators(dm, ComputeOperators_VPatch, nullptr));
  PetscCall(DMCoarsenHookAdd(dm, CoarsenHook_VPatch, nullptr, nullptr)); // after DMKSP's (made by the line above)
  char name[64];
  PetscCall(PetscSNPrintf(name, sizeof(name), "vpatch_Q%d_%dD_%dcells", (int)level->degree, (int)level->dim, (int)level->cells));
  PetscCall(PetscObjectSetName((PetscObject)dm, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateDMFromLevel(const std::shared_ptr<Level> &level, VecType vtype, DM *dm)
{
  PetscFunctionBegin;
  PetscCall(DMShellCreate(level->comm, dm));
  PetscCall(SetUpShell(level, vtype, *dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch

using namespace vpatch;

PetscErrorCode VPatchCreateDM(MPI_Comm comm, PetscInt dim, PetscInt degree, PetscInt cells, DM *dm)
{
  std::vector<PetscInt> ranges[3];
  std::shared_ptr<Level> level;
  PetscFunctionBegin;
  PetscCheck(dm, comm, PETSC_ERR_ARG_NULL, "VPatchCreateDM(): the DM pointer is NULL");
  PetscCall(VPatchInitializePackage());
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "vpatch supports dimension 2 or 3, not %" PetscInt_FMT, dim);
  PetscCheck(degree >= 1 && degree <= kMaxDegree, comm, PETSC_ERR_ARG_OUTOFRANGE, "vpatch supports degree 1 to %d, not %" PetscInt_FMT,
             kMaxDegree, degree);
  PetscCheck(cells >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "The number of cells per direction must be at least 1, not %" PetscInt_FMT, cells);
  PetscInt fixed[3] = {PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE}; // ranks per direction, as for a DMDA
  PetscOptionsBegin(comm, nullptr, "vpatch DM (VPatchCreateDM) options", "DM");
  for (PetscInt d = 0; d < dim; ++d) {
    const char *names[3] = {"-da_processors_x", "-da_processors_y", "-da_processors_z"};
    PetscCall(PetscOptionsInt(names[d], "Number of MPI ranks in this direction (default: the most balanced rank grid)", "VPatchCreateDM", fixed[d], &fixed[d], nullptr));
  }
  PetscOptionsEnd();
  PetscCall(LevelPartition(comm, dim, cells, fixed, ranges));
  PetscCall(LevelCreate(comm, dim, degree, cells, ranges, &level));
  PetscCall(CreateDMFromLevel(level, nullptr, dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VPatchIsVPatchDM(DM dm, PetscBool *flg)
{
  std::shared_ptr<Level> L;
  PetscFunctionBegin;
  PetscCheck(dm && flg, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "VPatchIsVPatchDM(): the %s is NULL", dm ? "PetscBool pointer" : "DM");
  PetscCall(LevelQuery((PetscObject)dm, &L));
  *flg = L ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VPatchDMGetInfo(DM dm, PetscInt *dim, PetscInt *degree, PetscInt *cells)
{
  std::shared_ptr<Level> L;
  PetscFunctionBegin;
  PetscCheck(dm, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "VPatchDMGetInfo(): the DM is NULL");
  PetscCall(GetLevel(dm, &L));
  if (dim) *dim = L->dim;
  if (degree) *degree = L->degree;
  if (cells) *cells = L->cells;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VPatchDMGetDA(DM dm, DM *da)
{
  PetscFunctionBegin;
  PetscCheck(dm && da, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "VPatchDMGetDA(): the %s is NULL", dm ? "DM pointer for the DMDA" : "DM");
  PetscCall(GetDA(dm, da));
  PetscFunctionReturn(PETSC_SUCCESS);
}
