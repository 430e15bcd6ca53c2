#include "smoother_options.hpp"

const char *const PCVPatchSweepTypes[]       = {"forward", "backward", "symmetric", "PCVPatchSweepType", "PC_VPATCH_SWEEP_", nullptr};
const char *const PCVPatchCompositeTypes[]   = {"multiplicative", "additive", "PCVPatchCompositeType", "PC_VPATCH_", nullptr};
const char *const PCVPatchLocalSolverTypes[] = {"fdm", "dense", "PCVPatchLocalSolverType", "PC_VPATCH_LOCAL_", nullptr};
static const char *const kernel_names[]      = {"global", "fused", "boundary", "basic", "auto"};

namespace vpatch {

// Measured on an H200 (bench/results_h200.csv, one smoothing step at ~50-64M DoF): the
// Boundary kernel beats Fused by more than 2% only for these (2D double k = 3: 10.08 against
// 9.78 GDoF/s; 3D double k = 8 in the plane form, now k >= 9: 2.64 against 2.53); otherwise
// Fused (3D double k = 6, 7 since the column writes of the tenth session: Fused 4.03 / 3.25,
// Boundary 3.97 / 3.19; 3D k = 5..8 by lines, thirty-third session: Fused double 7.03 / 7.40
// / 5.98 / 4.75 against Boundary 6.33 / 6.02 / 5.12 / 4.20, float k = 8 9.54 against 9.59).
// 2D float k = 4 (sixteenth session, PCVPATCHMG at 67M DoF): Boundary 19.83 ms per
// V-cycle and 7 iterations (0.182 s), Fused 19.90 ms and 9 iterations (0.245 s), Global
// 24.19 ms (its steps from zero gain nothing), although Global's smoothing step alone is
// the fastest since the gather operator (12.32 against 11.97 / 12.11 GDoF/s). In float the
// Boundary residual b_I - A_IB x_B cancels less than the Fused b - A x over the closure.
SmootherKernel default_kernel(int dim, int degree, bool single)
{
  const bool boundary = dim == 2 ? degree >= (single ? 4 : 3) : degree >= 9 && !single;
  return boundary ? SmootherKernel::Boundary : SmootherKernel::Fused;
}

SmootherConfig SmootherOptions::config(int dim, int degree, bool single, bool transpose) const
{
  SmootherConfig c;
  const SweepType first = transpose ? SweepType::Backward : SweepType::Forward, last = transpose ? SweepType::Forward : SweepType::Backward;
  c.sweep = sweep == PC_VPATCH_SWEEP_FORWARD ? first : sweep == PC_VPATCH_SWEEP_BACKWARD ? last : SweepType::Symmetric;
  c.type = type == PC_VPATCH_MULTIPLICATIVE ? CompositeType::Multiplicative : CompositeType::Additive;
  c.solver = solver == PC_VPATCH_LOCAL_FDM ? LocalSolver::FDM : LocalSolver::Dense;
  c.kernel = kernel < 0 ? default_kernel(dim, degree, single) : (SmootherKernel)kernel;
  // at most 2^dim patches overlap at a point: the additive default keeps the sum stable
  c.damping = damping > 0 ? damping : (type == PC_VPATCH_ADDITIVE ? 1.0 / (1 << dim) : 1.0);
  return c;
}

PetscErrorCode SmootherOptions::set_from_options(PetscOptionItems *PetscOptionsObject, const char *stem)
{
  char name[64];
  PetscBool flg;
  PetscReal w = damping;
  PetscInt kern = kernel < 0 ? 4 : kernel;
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_sweep", stem));
  PetscCall(PetscOptionsEnum(name, "Order of the colors: forward, backward, or symmetric (forward then backward)", "PCVPatchSetSweepType",
                             PCVPatchSweepTypes, (PetscEnum)sweep, (PetscEnum *)&sweep, nullptr));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_type", stem));
  PetscCall(PetscOptionsEnum(name, "Multiplicative (colorized) or damped additive Schwarz", "PCVPatchSetCompositeType", PCVPatchCompositeTypes,
                             (PetscEnum)type, (PetscEnum *)&type, nullptr));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_damping", stem));
  PetscCall(PetscOptionsReal(name, "Damping of the patch corrections, > 0 (unset, shown as -1: 1, or 1/2^dim for additive)", "PCVPatchSetDamping", w, &w, &flg));
  if (flg) {
    PetscCheck(valid_damping(w), PetscOptionsObject->comm, PETSC_ERR_ARG_OUTOFRANGE, "-%s%s must be positive and finite, not %g",
               PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", name + 1, (double)w);
    damping = w;
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_local_solver", stem));
  PetscCall(PetscOptionsEnum(name, "Local patch solver: fast diagonalization or the explicitly inverted patch matrix", "PCVPatchSetLocalSolverType",
                             PCVPatchLocalSolverTypes, (PetscEnum)solver, (PetscEnum *)&solver, nullptr));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_kernel", stem));
  PetscCall(PetscOptionsEList(name, "GPU smoother kernel (auto: the fastest measured)", "PCVPATCH", kernel_names, 5, kernel_names[kern], &kern, &flg));
  if (flg) kernel = kern == 4 ? -1 : kern;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SmootherOptions::view(PetscViewer viewer, int dim, int degree, bool single, bool gpu) const
{
  char w[48], k[48] = "";
  PetscFunctionBegin;
  if (dim > 0) {
    const SmootherConfig c = config(dim, degree, single);
    PetscCall(PetscSNPrintf(w, sizeof(w), "%g", c.damping));
    if (gpu) PetscCall(PetscSNPrintf(k, sizeof(k), ", GPU kernel: %s%s", kernel_names[(int)c.kernel], kernel < 0 ? " (auto)" : ""));
  } else { // not set up
    if (damping > 0) PetscCall(PetscSNPrintf(w, sizeof(w), "%g", damping));
    else PetscCall(PetscStrncpy(w, type == PC_VPATCH_ADDITIVE ? "1/2^dim (default)" : "1 (default)", sizeof(w)));
    if (kernel >= 0) PetscCall(PetscSNPrintf(k, sizeof(k), ", GPU kernel: %s", kernel_names[kernel]));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "vertex-patch smoother: %s, sweep %s, damping %s\n", PCVPatchCompositeTypes[type],
                                   type == PC_VPATCH_ADDITIVE ? "(all patches at once)" : PCVPatchSweepTypes[sweep], w));
  PetscCall(PetscViewerASCIIPrintf(viewer, "local solver: %s%s\n", solver == PC_VPATCH_LOCAL_FDM ? "fast diagonalization" : "dense inverse", k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
