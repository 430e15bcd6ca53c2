// The vertex-patch smoother's user-facing settings, shared by PCVPATCH (-pc_vpatch_*) and
// the float multigrid PC (-pc_vpatchmg_*): options database, viewing, and conversion to
// the kernels' SmootherConfig.
#pragma once
#include "../../include/vpatch.h"
#include "level_ops.hpp"

namespace vpatch {

struct SmootherOptions {
  PCVPatchSweepType sweep = PC_VPATCH_SWEEP_FORWARD;
  PCVPatchCompositeType type = PC_VPATCH_MULTIPLICATIVE;
  PCVPatchLocalSolverType solver = PC_VPATCH_LOCAL_FDM;
  PetscInt kernel = -1;   // -1: the fastest measured for the level (see default_kernel)
  PetscReal damping = -1; // negative: the default of the type

  SmootherConfig config(int dim, int degree, bool single) const;
  PetscErrorCode set_from_options(PetscOptionItems *PetscOptionsObject, const char *stem);
  PetscErrorCode view(PetscViewer viewer, int dim, int degree, bool single) const;
};

// The GPU kernel used when none is chosen: the fastest measured for (dim, degree, precision).
SmootherKernel default_kernel(int dim, int degree, bool single);

} // namespace vpatch
