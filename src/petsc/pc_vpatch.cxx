// PCVPATCH: the colorized vertex-patch smoother (paper Algorithm 2.3 with the localized
// residual of eq. 2.8) as a PETSc preconditioner, in the style of PCSOR: PCApplyRichardson
// runs n sweeps (honouring a zero initial guess), PCApply one sweep from zero.
#include "../../include/vpatch.h"
#include "logging.hpp"
#include "smoother_options.hpp"
#include "vec_access.hpp"
#include <cstring>
#include <petsc/private/pcimpl.h>

namespace vpatch {

struct PC_VPatch {
  SmootherOptions options;
  std::unique_ptr<LevelOpsCache<PetscScalar>> ops;
};

static PetscErrorCode PCSetUp_VPatch(PC pc)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  std::shared_ptr<Level> level;
  MatType type;
  PetscFunctionBegin;
  PetscCall(LevelQuery((PetscObject)pc->pmat, &level));
  PetscCall(MatGetType(pc->pmat, &type));
  PetscCheck(level, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG,
             "PCVPATCH needs the matrix-free operator of a vpatch DM (VPatchCreateOperator() or DMCreateMatrix() on a VPatchCreateDM() DM); got a matrix of type %s",
             type);
  PetscCheck(level->cells >= 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP,
             "PCVPATCH needs at least 2 cells per direction (a mesh with interior vertices); this level has %" PetscInt_FMT, level->cells);
  if (!vp->ops || vp->ops->level() != level) vp->ops = std::make_unique<LevelOpsCache<PetscScalar>>(level, vp->options.solver == PC_VPATCH_LOCAL_DENSE);
  MemSpace s = MemSpace::Host;
  LevelOps<PetscScalar> *ops = nullptr;
  PetscCall(MatMemSpace(pc->pmat, &s)); // tables to the device now, not inside the solve
  PetscCall(vp->ops->get(s, &ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// n smoother applications on y; zero_guess: y is zero on entry.
static PetscErrorCode Sweep(PC pc, Vec b, Vec y, PetscInt n, bool zero_guess)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  LevelOps<PetscScalar> *ops = nullptr;
  MemSpace s = MemSpace::Host, t = MemSpace::Host;
  const PetscScalar *ba;
  PetscScalar *ya;
  PetscFunctionBegin;
  PetscCall(VecMemSpace(b, &s));
  PetscCall(VecMemSpace(y, &t));
  PetscCheck(s == t, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP, "PCVPATCH: b and x must both live on the host or on the device");
  PetscCall(vp->ops->get(s, &ops));
  const Level &L = *vp->ops->level();
  const SmootherConfig cfg = vp->options.config((int)L.dim, (int)L.degree, false);
  VecRead br(b, s);
  VecWrite yw(y, s, true);
  PetscCall(PetscLogEventBegin(events.smooth, pc, b, y, 0));
  PetscCall(br.get(&ba));
  PetscCall(yw.get(&ya));
  for (PetscInt i = 0; i < n; ++i) PetscCall(ops->smooth(cfg, ba, ya, zero_guess && i == 0));
  PetscCall(yw.restore());
  PetscCall(br.restore());
  PetscCall(PetscLogEventEnd(events.smooth, pc, b, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_VPatch(PC pc, Vec b, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecZeroEntries(y));
  PetscCall(Sweep(pc, b, y, 1, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyRichardson_VPatch(PC pc, Vec b, Vec y, Vec, PetscReal, PetscReal, PetscReal, PetscInt its, PetscBool guesszero,
                                               PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  PetscFunctionBegin;
  if (guesszero) PetscCall(VecZeroEntries(y));
  PetscCall(Sweep(pc, b, y, its, guesszero));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// As a PCMG level smoother (prefix mg_levels_*), vpatch is meant to be applied by
// Richardson, one sweep per smoothing step (the paper's one pre- and one post-smoothing
// step), not by PCMG's default Chebyshev. KSPSetFromOptions reads the PC's options before
// its own, so these defaults are entered into the options database here, only where the
// user gave none.
static PetscErrorCode SetLevelSmootherDefaults(PC pc)
{
  const char *prefix;
  PetscOptions options = ((PetscObject)pc)->options;
  PetscBool has;
  char name[256];
  PetscFunctionBegin;
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  if (!prefix || !std::strstr(prefix, "mg_levels_")) PetscFunctionReturn(PETSC_SUCCESS);
  const char *defaults[][2] = {{"ksp_type", "richardson"}, {"ksp_max_it", "1"}};
  for (auto &d : defaults) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "-%s", d[0]));
    PetscCall(PetscOptionsHasName(options, prefix, name, &has));
    if (has) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "-%s%s", prefix, d[0]));
    PetscCall(PetscOptionsSetValue(options, name, d[1]));
    PetscCall(PetscInfo(pc, "vpatch level smoother default: %s %s\n", name, d[1]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_VPatch(PC pc, PetscOptionItems *PetscOptionsObject)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  PetscFunctionBegin;
  PetscCall(SetLevelSmootherDefaults(pc));
  PetscOptionsHeadBegin(PetscOptionsObject, "Vertex-patch smoother options");
  PetscCall(vp->options.set_from_options(PetscOptionsObject, "-pc_vpatch"));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_VPatch(PC pc, PetscViewer viewer)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (!vp->ops) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  (not set up)\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const Level &L = *vp->ops->level();
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(vp->options.view(viewer, (int)L.dim, (int)L.degree, false));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  {
    PetscInt patches = 1;
    for (PetscInt d = 0; d < L.dim; ++d) patches *= L.cells - 1;
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Q%" PetscInt_FMT " in %" PetscInt_FMT "D, %" PetscInt_FMT " cells per direction: %" PetscInt_FMT
                                             " patches of %" PetscInt_FMT "^%" PetscInt_FMT " unknowns in %d colors\n",
                                     L.degree, L.dim, L.cells, patches, 2 * L.degree - 1, L.dim, 1 << L.dim));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_VPatch(PC pc)
{
  PetscFunctionBegin;
  static_cast<PC_VPatch *>(pc->data)->ops.reset();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_VPatch(PC pc)
{
  PetscFunctionBegin;
  delete static_cast<PC_VPatch *>(pc->data);
  pc->data = nullptr;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetSweepType_C", nullptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetCompositeType_C", nullptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetDamping_C", nullptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetLocalSolverType_C", nullptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCVPatchSetSweepType_VPatch(PC pc, PCVPatchSweepType t)
{
  static_cast<PC_VPatch *>(pc->data)->options.sweep = t;
  return PETSC_SUCCESS;
}
static PetscErrorCode PCVPatchSetCompositeType_VPatch(PC pc, PCVPatchCompositeType t)
{
  static_cast<PC_VPatch *>(pc->data)->options.type = t;
  return PETSC_SUCCESS;
}
static PetscErrorCode PCVPatchSetDamping_VPatch(PC pc, PetscReal w)
{
  PetscFunctionBegin;
  PetscCheck(w > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Damping must be positive, not %g", (double)w);
  static_cast<PC_VPatch *>(pc->data)->options.damping = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode PCVPatchSetLocalSolverType_VPatch(PC pc, PCVPatchLocalSolverType t)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  if (vp->options.solver != t) vp->ops.reset();
  vp->options.solver = t;
  return PETSC_SUCCESS;
}

} // namespace vpatch

using namespace vpatch;

PETSC_EXTERN PetscErrorCode PCCreate_VPatch(PC pc)
{
  PetscFunctionBegin;
  pc->data = new PC_VPatch();
  pc->ops->setup = PCSetUp_VPatch;
  pc->ops->apply = PCApply_VPatch;
  pc->ops->applyrichardson = PCApplyRichardson_VPatch;
  pc->ops->setfromoptions = PCSetFromOptions_VPatch;
  pc->ops->view = PCView_VPatch;
  pc->ops->reset = PCReset_VPatch;
  pc->ops->destroy = PCDestroy_VPatch;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetSweepType_C", PCVPatchSetSweepType_VPatch));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetCompositeType_C", PCVPatchSetCompositeType_VPatch));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetDamping_C", PCVPatchSetDamping_VPatch));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetLocalSolverType_C", PCVPatchSetLocalSolverType_VPatch));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchSetSweepType(PC pc, PCVPatchSweepType t)
{
  PetscFunctionBegin;
  PetscTryMethod(pc, "PCVPatchSetSweepType_C", (PC, PCVPatchSweepType), (pc, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode PCVPatchSetCompositeType(PC pc, PCVPatchCompositeType t)
{
  PetscFunctionBegin;
  PetscTryMethod(pc, "PCVPatchSetCompositeType_C", (PC, PCVPatchCompositeType), (pc, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode PCVPatchSetDamping(PC pc, PetscReal w)
{
  PetscFunctionBegin;
  PetscTryMethod(pc, "PCVPatchSetDamping_C", (PC, PetscReal), (pc, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode PCVPatchSetLocalSolverType(PC pc, PCVPatchLocalSolverType t)
{
  PetscFunctionBegin;
  PetscTryMethod(pc, "PCVPatchSetLocalSolverType_C", (PC, PCVPatchLocalSolverType), (pc, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
