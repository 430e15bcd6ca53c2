// Full multigrid with nonzero Dirichlet values (PCVPatchMGApplyFull): the operator's identity
// rows put the boundary values in b and their coupling into its interior rows, which restrict
// to no coarse problem's, and the nested iteration approximates a solution that vanishes on the
// boundary. So full multigrid runs on u - L, L the transfinite lift of b's boundary values
// (core/boundary_lift.hpp), and L is added back. This holds the faces of b's boundary values,
// gathered from every rank (the same lift on any number of ranks).
#pragma once
#include "level_ops.hpp"
#include <petscvec.h>
#include <vector>

namespace vpatch {

class DirichletLift {
public:
  explicit DirichletLift(std::shared_ptr<Level> finest) : level_(std::move(finest)) {}
  // Collective: the faces of b's boundary values; *nonzero: whether any is nonzero (where none
  // is, the faces are not exchanged and full multigrid needs no lift).
  PetscErrorCode gather(Vec b, bool *nonzero);
  // y = the lift of the faces gathered last.
  PetscErrorCode apply(Vec y);

private:
  PetscErrorCode faces_in(MemSpace s, double **f);
  std::shared_ptr<Level> level_;
  std::vector<double> host_;   // the faces on the host (the exchange; the host's lift)
  Buffer<double> device_;      // and on the device (device vectors)
};

} // namespace vpatch
