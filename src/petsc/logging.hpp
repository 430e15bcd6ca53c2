// Log events of the plugin (registered in register.cxx) and the helpers that bracket
// kernel work with them, GPU time included.
#pragma once
#include "compat.hpp"
#include <petsclog.h>

namespace vpatch {
struct Events {
  // mult: MatMult; residual: a level's b - A x; peer: a ghost exchange through CUDA IPC;
  // peer_setup: making one (IPC handles); level_setup: a level's layout and PetscSFs;
  // full_mg: PCVPatchMGApplyFull (the events of its kernels inside); vec_mdot, vec_maxpy: the
  // device vectors' VecMDot and VecMAXPY (device_vec_ops.hpp, inside PETSc's events); lift: full
  // multigrid's lift of nonzero Dirichlet values (dirichlet_lift.hpp)
  PetscLogEvent mult, residual, diagonal, smooth, prolong, restrict_, setup, convert, peer, peer_setup, level_setup, full_mg, vec_mdot, vec_maxpy, lift;
};
extern Events events;
extern PetscClassId classid;
} // namespace vpatch
