// The coarse levels of a distributed multigrid hierarchy on rank 0 alone: below a size
// their work is too small to spread, while on several ranks each smoothing color, residual
// and transfer would exchange ghosts (on GPUs without CUDA-aware MPI about 0.3 ms each,
// docs/performance.md section 6). The agglomerated level exists twice: distributed like the
// finer levels (the "twin", which the transfer from the next finer level uses) and whole on
// rank 0, where it and every coarser level live; a PetscSF gathers the twin's owned points
// into rank 0's level and scatters them back.
#pragma once
#include "level.hpp"
#include <petscsf.h>

namespace vpatch {

struct Agglomeration {
  int level = -1;                // index (0: coarsest) of the finest level on rank 0 alone
  PetscInt limit = 0;            // the size limit (points) that chose it
  std::shared_ptr<Level> twin;   // that level, distributed like the finer levels
  PetscSF gather = nullptr;      // roots: the twin's owned points on every rank; leaves: rank 0's level, lexicographic
  Agglomeration() = default;
  Agglomeration(const Agglomeration &) = delete;
  Agglomeration &operator=(const Agglomeration &) = delete;
  ~Agglomeration();
};

// The gather of a distributed level's points onto rank 0 (the agglomeration's SF).
PetscErrorCode AgglomerationCreate(int level, PetscInt limit, const std::shared_ptr<Level> &twin, std::shared_ptr<Agglomeration> *agg);
// Level `twin` whole on rank 0 (PETSC_COMM_SELF); nullptr on the other ranks.
PetscErrorCode LevelCreateOnRoot(const Level &twin, std::shared_ptr<Level> *root);

} // namespace vpatch
