// The vertex-patch smoother's user-facing settings, shared by PCVPATCH (-pc_vpatch_*) and
// the float multigrid PC (-pc_vpatchmg_*): options database, viewing, and conversion to
// the kernels' SmootherConfig.
#pragma once
#include "../../include/vpatch.h"
#include "level_ops.hpp"
#include <petsc/private/pcimpl.h>

namespace vpatch {

struct SmootherOptions {
  PCVPatchSweepType sweep = PC_VPATCH_SWEEP_FORWARD;
  PCVPatchCompositeType type = PC_VPATCH_MULTIPLICATIVE;
  PCVPatchLocalSolverType solver = PC_VPATCH_LOCAL_FDM;
  PetscInt kernel = -1;   // -1: the fastest measured for the level (see default_kernel)
  PetscReal damping = -1; // negative: the default of the type
  // a damping one may set: positive and finite (PCVPatchSetDamping, -pc_vpatch_damping)
  static bool valid_damping(PetscReal w) { return w > 0 && !PetscIsInfOrNanReal(w); }

  // transpose: the smoother's transpose (for PCApplyTranspose; A and the patch solves are
  // symmetric, so a forward sweep's transpose is the backward one; symmetric and additive
  // are their own)
  SmootherConfig config(int dim, int degree, bool single, bool transpose = false) const;
  PetscErrorCode set_from_options(PetscOptionItems *PetscOptionsObject, const char *stem);
  // dim 0: before setup (the defaults that depend on the level unresolved); gpu: the kernel in use
  PetscErrorCode view(PetscViewer viewer, int dim, int degree, bool single, bool gpu) const;
};

// The PCVPatchSet* methods of a PC whose data (Data) holds its SmootherOptions as `smoother`,
// composed by PCVPATCH and PCVPATCHMG alike (the public functions check the arguments). Another
// local solver needs other patch tables: the PC is set up again.
template <typename Data>
struct SmootherSetters {
  static SmootherOptions &of(PC pc) { return static_cast<Data *>(pc->data)->smoother; }
  static PetscErrorCode sweep(PC pc, PCVPatchSweepType t) { return of(pc).sweep = t, PETSC_SUCCESS; }
  static PetscErrorCode type(PC pc, PCVPatchCompositeType t) { return of(pc).type = t, PETSC_SUCCESS; }
  static PetscErrorCode damping(PC pc, PetscReal w) { return of(pc).damping = w, PETSC_SUCCESS; }
  static PetscErrorCode solver(PC pc, PCVPatchLocalSolverType t)
  {
    if (of(pc).solver != t) pc->setupcalled = 0;
    return of(pc).solver = t, PETSC_SUCCESS;
  }
  // on: compose the methods; else remove them (PCDestroy)
  static PetscErrorCode compose(PC pc, bool on)
  {
    PetscFunctionBegin;
    PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetSweepType_C", on ? sweep : nullptr));
    PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetCompositeType_C", on ? type : nullptr));
    PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetDamping_C", on ? damping : nullptr));
    PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCVPatchSetLocalSolverType_C", on ? solver : nullptr));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
};

// The GPU kernel used when none is chosen: the fastest measured for (dim, degree, precision).
SmootherKernel default_kernel(int dim, int degree, bool single);

} // namespace vpatch
