// Log events of the plugin (registered in register.cxx) and the helpers that bracket
// kernel work with them, GPU time included.
#pragma once
#include "compat.hpp"
#include <petsclog.h>

namespace vpatch {
struct Events {
  PetscLogEvent mult, residual, diagonal, smooth, prolong, restrict_, setup, convert; // mult: MatMult; residual: a level's b - A x
};
extern Events events;
extern PetscClassId classid;
} // namespace vpatch
