// Log events of the plugin (registered in register.cxx) and the helpers that bracket
// kernel work with them, GPU time included.
#pragma once
#include "compat.hpp"
#include <petsclog.h>

namespace vpatch {
struct Events {
  PetscLogEvent mult, residual, diagonal, smooth, prolong, restrict_, setup, convert, peer; // mult: MatMult; residual: a level's b - A x; peer: a ghost exchange through CUDA IPC
};
extern Events events;
extern PetscClassId classid;
} // namespace vpatch
