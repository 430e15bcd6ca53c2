// PCVPATCH: the colorized vertex-patch smoother (paper Algorithm 2.3 with the localized
// residual of eq. 2.8) as a PETSc preconditioner, in the style of PCSOR: PCApply is one sweep
// from zero, PCApplyTranspose the transposed sweep, PCApplyRichardson n sweeps (honouring a
// zero initial guess; off PCMG's levels up to the tolerances).
#include "../../include/vpatch.h"
#include "logging.hpp"
#include "richardson_test.hpp"
#include "shell_base.hpp"
#include "smoother_options.hpp"
#include "vec_access.hpp"
#include "work_vec.hpp"
#include <cstring>
#include <string>
#include <vector>
#include <petsc/private/pcimpl.h>

namespace vpatch {

struct PC_VPatch {
  SmootherOptions smoother;
  std::unique_ptr<LevelOpsCache<PetscScalar>> ops;
  std::vector<std::string> level_defaults; // entered into the options database by SetLevelSmootherDefaults, until PCSetUp or the next sweep
  WorkVec correction;                      // PCApplyRichardson's B w
};

static PetscErrorCode ClearLevelSmootherDefaults(PC pc);

static PetscErrorCode PCSetUp_VPatch(PC pc)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  std::shared_ptr<Level> level;
  PetscFunctionBegin;
  PetscCall(OperatorLevelForPC(pc->pmat, "PCVPATCH", &level));
  const bool dense = vp->smoother.solver == PC_VPATCH_LOCAL_DENSE;
  if (!vp->ops || vp->ops->level() != level || vp->ops->dense() != dense) vp->ops = std::make_unique<LevelOpsCache<PetscScalar>>(level, dense);
  MemSpace s = MemSpace::Host;
  LevelOps<PetscScalar> *ops = nullptr;
  PetscCall(MatMemSpace(pc->pmat, &s)); // tables to the device now, not inside the solve
  PetscCall(vp->ops->get(s, &ops));
  PetscCall(ClearLevelSmootherDefaults(pc)); // the level's KSP has read them
  PetscFunctionReturn(PETSC_SUCCESS);
}

// n smoother applications on y (of its transpose); zero_guess: y is zero on entry.
static PetscErrorCode Sweep(PC pc, Vec b, Vec y, PetscInt n, bool zero_guess, bool transpose = false)
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
  PetscCall(OperatorCheckSetUp(pc, vp->ops ? vp->ops->level().get() : nullptr, "PCVPATCH"));
  PetscCall(vp->ops->get(s, &ops));
  if (!vp->level_defaults.empty()) PetscCall(ClearLevelSmootherDefaults(pc)); // entered again by a KSPSetFromOptions after PCSetUp
  const Level &L = *vp->ops->level();
  const SmootherConfig cfg = vp->smoother.config((int)L.dim, (int)L.degree, false, transpose);
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

static PetscErrorCode PCApplyTranspose_VPatch(PC pc, Vec b, Vec y)
{
  PetscFunctionBegin;
  PetscCall(VecZeroEntries(y));
  PetscCall(Sweep(pc, b, y, 1, true, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether the PC smooths a level (not the coarse one) of PCMG, as its options prefix says
// (mg_levels_N_): PCMG's level KSPs skip the convergence test.
static PetscErrorCode IsLevelSmoother(PC pc, bool *level)
{
  const char *prefix;
  PetscFunctionBegin;
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  *level = prefix && std::strstr(prefix, "mg_levels_");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// KSPRichardson's fast path (taken without monitors). On a PCMG level its sweeps run as given,
// as PCSOR's do. Elsewhere, as in PCMG's own Richardson application, the tolerances end them
// (richardson_test.hpp: after each step ||b - A y||, whatever the KSP's norm type; an initial
// guess that already meets them, or is already diverged, takes no step; w holds the
// residuals); the last step reached is CONVERGED_ITS, PETSc's convention for this path. Off
// PCMG's levels, where A (pc->mat) is not the operator the PC sweeps (pc->pmat, or pc->mat
// changed since a setup the KSP reuses), a step is a correction y += B (b - A y), B one sweep
// from zero (on PCMG's levels Amat is Pmat).
static PetscErrorCode PCApplyRichardson_VPatch(PC pc, Vec b, Vec y, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its,
                                               PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  bool level;
  PetscReal bnorm, rn;
  Vec z = nullptr;
  PetscFunctionBegin;
  if (guesszero) PetscCall(VecZeroEntries(y));
  *outits = its;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  PetscCall(IsLevelSmoother(pc, &level));
  if (level || !RichardsonTest::active(rtol, abstol)) {
    PetscCall(Sweep(pc, b, y, its, guesszero));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  auto residual = [&](PetscReal *norm) -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(OperatorResidualNorm(pc->mat, b, y, w, norm));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  PetscBool base;
  PetscCall(OperatorIsBase(pc->mat, &base)); // (a reused PC's operator may have changed since its setup)
  const bool correction = pc->mat != pc->pmat || !base;
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  if (guesszero) {
    rn = bnorm;
    if (correction) PetscCall(VecCopy(b, w));
  } else PetscCall(residual(&rn));
  const RichardsonTest test(bnorm, rn, rtol, abstol, dtol);
  if (const PCRichardsonConvergedReason r = test(rn)) { // (a first sweep can overwrite the boundary values that made it Inf or NaN)
    *outits = 0;
    *reason = r;
    PetscCall(PetscInfo(pc, "vpatch Richardson: the initial residual norm is %g (||b|| %g)\n", (double)rn, (double)bnorm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (correction) PetscCall(vp->correction.like(y, &z));
  for (PetscInt i = 0; i < its; ++i) {
    if (correction) { // y += B w, w = b - A y
      PetscCall(VecZeroEntries(z));
      PetscCall(Sweep(pc, w, z, 1, true));
      PetscCall(VecAXPY(y, 1.0, z));
    } else PetscCall(Sweep(pc, b, y, 1, guesszero && i == 0));
    PetscCall(residual(&rn));
    *outits = i + 1;
    if (const PCRichardsonConvergedReason r = test(rn)) {
      *reason = r;
      break;
    }
  }
  PetscCall(PetscInfo(pc, "vpatch Richardson: %" PetscInt_FMT " steps, residual norm %g (||b|| %g)\n", *outits, (double)rn, (double)bnorm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// As a PCMG level smoother chosen on the command line (-mg_levels_pc_type vpatch), vpatch is
// meant to be applied by Richardson, one sweep per smoothing step (the paper's one pre- and
// one post-smoothing step), not by PCMG's default Chebyshev. KSPSetFromOptions reads the PC's
// options before its own, so these defaults are entered into the options database here, where
// the user gave no KSP type (and no iteration count either, for the count), and removed again
// once the PC is set up, so that they reach no other solver. Where vpatch was chosen through
// the API, the level KSP keeps what the program set.
static PetscErrorCode SetLevelSmootherDefaults(PC pc)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  const char *prefix;
  PetscOptions options = ((PetscObject)pc)->options;
  PetscBool has_type, has_its, set, chosen;
  bool level;
  char name[256], type[64] = "";
  PetscFunctionBegin;
  PetscCall(ClearLevelSmootherDefaults(pc));
  PetscCall(IsLevelSmoother(pc, &level));
  if (!level) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(PetscOptionsGetString(options, prefix, "-pc_type", type, sizeof(type), &set));
  PetscCall(PetscStrcmp(type, PCVPATCH, &chosen));
  if (!set || !chosen) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsHasName(options, prefix, "-ksp_type", &has_type));
  PetscCall(PetscOptionsHasName(options, prefix, "-ksp_max_it", &has_its));
  const char *defaults[][2] = {{"ksp_type", has_type ? nullptr : "richardson"}, {"ksp_max_it", has_type || has_its ? nullptr : "1"}};
  for (auto &d : defaults) {
    if (!d[1]) continue;
    PetscCall(PetscSNPrintf(name, sizeof(name), "-%s%s", prefix, d[0]));
    PetscCall(PetscOptionsSetValue(options, name, d[1]));
    vp->level_defaults.push_back(name);
    PetscCall(PetscInfo(pc, "vpatch level smoother default: %s %s\n", name, d[1]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ClearLevelSmootherDefaults(PC pc)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  PetscFunctionBegin;
  for (const std::string &name : vp->level_defaults) PetscCall(PetscOptionsClearValue(((PetscObject)pc)->options, name.c_str()));
  vp->level_defaults.clear();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_VPatch(PC pc, PetscOptionItems *PetscOptionsObject)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  const PCVPatchLocalSolverType solver = vp->smoother.solver;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Vertex-patch smoother options");
  PetscCall(vp->smoother.set_from_options(PetscOptionsObject, "-pc_vpatch"));
  PetscOptionsHeadEnd();
  PetscCall(SetLevelSmootherDefaults(pc)); // after the checks of the user's options: an error leaves none behind (PETSc's report listed them)
  if (vp->smoother.solver != solver) pc->setupcalled = 0; // other patch tables
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_VPatch(PC pc, PetscViewer viewer)
{
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (!vp->ops) {
    PetscCall(vp->smoother.view(viewer, 0, 0, false, false));
    PetscCall(PetscViewerASCIIPrintf(viewer, "(not set up)\n"));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const Level &L = *vp->ops->level();
  MemSpace s = MemSpace::Host;
  if (pc->pmat) PetscCall(MatMemSpace(pc->pmat, &s));
  PetscCall(vp->smoother.view(viewer, (int)L.dim, (int)L.degree, false, s == MemSpace::Device));
  bool level = false;
  PetscCall(IsLevelSmoother(pc, &level));
  // off PCMG's levels (a Krylov method's preconditioner, or a coarse solve of several patches)
  if (!level && L.cells > 2 && vp->smoother.type == PC_VPATCH_MULTIPLICATIVE && vp->smoother.sweep != PC_VPATCH_SWEEP_SYMMETRIC)
    PetscCall(PetscViewerASCIIPrintf(viewer, "(not a symmetric preconditioner: for CG, MINRES and the like -pc_vpatch_sweep symmetric)\n"));
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
  auto *vp = static_cast<PC_VPatch *>(pc->data);
  PetscFunctionBegin;
  vp->ops.reset();
  PetscCall(vp->correction.reset());
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_VPatch(PC pc)
{
  PetscFunctionBegin;
  PetscCall(ClearLevelSmootherDefaults(pc));
  delete static_cast<PC_VPatch *>(pc->data);
  pc->data = nullptr;
  PetscCall(SmootherSetters<PC_VPatch>::compose(pc, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch

using namespace vpatch;

PETSC_EXTERN PetscErrorCode PCCreate_VPatch(PC pc)
{
  PetscFunctionBegin;
  pc->data = new PC_VPatch();
  pc->ops->setup = Guarded<PCSetUp_VPatch>::call;
  pc->ops->apply = Guarded<PCApply_VPatch>::call;
  pc->ops->applytranspose = Guarded<PCApplyTranspose_VPatch>::call;
  pc->ops->applyrichardson = Guarded<PCApplyRichardson_VPatch>::call;
  pc->ops->setfromoptions = PCSetFromOptions_VPatch;
  pc->ops->view = PCView_VPatch;
  pc->ops->reset = Guarded<PCReset_VPatch>::call;
  pc->ops->destroy = Guarded<PCDestroy_VPatch>::call;
  PetscCall(SmootherSetters<PC_VPatch>::compose(pc, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The setters act on a PCVPATCH or a PCVPATCHMG (its levels' smoother), and do nothing on
// other PC types.
PetscErrorCode PCVPatchSetSweepType(PC pc, PCVPatchSweepType t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, t, 2);
  PetscCheck(t >= PC_VPATCH_SWEEP_FORWARD && t <= PC_VPATCH_SWEEP_SYMMETRIC, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "Unknown PCVPatchSweepType %d", (int)t);
  PetscTryMethod(pc, "PCVPatchSetSweepType_C", (PC, PCVPatchSweepType), (pc, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode PCVPatchSetCompositeType(PC pc, PCVPatchCompositeType t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, t, 2);
  PetscCheck(t == PC_VPATCH_MULTIPLICATIVE || t == PC_VPATCH_ADDITIVE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "Unknown PCVPatchCompositeType %d", (int)t);
  PetscTryMethod(pc, "PCVPatchSetCompositeType_C", (PC, PCVPatchCompositeType), (pc, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode PCVPatchSetDamping(PC pc, PetscReal w)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, w, 2);
  PetscCheck(SmootherOptions::valid_damping(w), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Damping must be positive and finite, not %g", (double)w);
  PetscTryMethod(pc, "PCVPatchSetDamping_C", (PC, PetscReal), (pc, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode PCVPatchSetLocalSolverType(PC pc, PCVPatchLocalSolverType t)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, t, 2);
  PetscCheck(t == PC_VPATCH_LOCAL_FDM || t == PC_VPATCH_LOCAL_DENSE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "Unknown PCVPatchLocalSolverType %d", (int)t);
  PetscTryMethod(pc, "PCVPatchSetLocalSolverType_C", (PC, PCVPatchLocalSolverType), (pc, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
