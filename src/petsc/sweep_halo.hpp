// The in-place multiplicative sweep of a level distributed over several ranks
// (LevelOps::smooth). Each rank runs every patch whose interior meets its owned points, the
// patches around the next rank's first vertices included (Box::halo_patches: both ranks run
// those), in place on a ghosted array of the layout below; one ghost update per color then
// replaces the DMDA scatter's two (the corrections summed into their owners, the owners'
// values broadcast back) and its copies of every owned point.
// Layout: the level's ghosted box (width k, the DMDA's) and one more point on the high side of each
// rank boundary, where the closures of those extra patches end.
#pragma once
#include "level.hpp"
#include <petscsf.h>

namespace vpatch {

struct SweepHalo {
  Box box{};            // the level's Box with the sweep layout (gs, gm) and halo_patches on
  PetscSF sf = nullptr; // roots: owned points of an array in the sweep layout; leaves: its ghost points
  SweepHalo() = default;
  SweepHalo(const SweepHalo &) = delete;
  SweepHalo &operator=(const SweepHalo &) = delete;
  ~SweepHalo();
};

// The level's sweep halo, built now if it was not yet (collective on the level's comm).
PetscErrorCode LevelGetSweepHalo(Level &level, const SweepHalo **halo);

} // namespace vpatch
