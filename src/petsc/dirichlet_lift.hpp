// Full multigrid with nonzero Dirichlet values (PCVPatchMGApplyFull): the operator's identity
// rows put the boundary values in b and their coupling into its interior rows, which restrict
// to no coarse problem's, and the nested iteration approximates a solution that vanishes on the
// boundary. So full multigrid runs on u - L, L the transfinite lift of b's boundary values
// (core/boundary_lift.hpp), and L is added back. This holds the faces of b's boundary values,
// gathered from every rank (the same lift on any number of ranks: each rank holds all
// 2 d n^(d-1) face values, in the vectors' memory space, from the first full multigrid on), and
// the work vector of b - A L.
#pragma once
#include "level_ops.hpp"
#include "work_vec.hpp"
#include <petscvec.h>
#include <vector>

namespace vpatch {

class DirichletLift {
public:
  explicit DirichletLift(std::shared_ptr<Level> finest) : level_(std::move(finest)) {}
  DirichletLift(const DirichletLift &) = delete;
  DirichletLift &operator=(const DirichletLift &) = delete;
  // Collective: the faces of b's boundary values; *nonzero: whether any is nonzero (where none
  // is, the faces are not exchanged and full multigrid needs no lift).
  PetscErrorCode gather(Vec b, bool *nonzero);
  // y = the lift of the faces gathered last (y in b's memory space).
  PetscErrorCode apply(Vec y);
  // A work vector like b (kept between calls while b's type and size stay).
  PetscErrorCode work(Vec b, Vec *r) { return work_.like(b, r); }

private:
  PetscErrorCode faces_in(MemSpace s, double **f);
  std::shared_ptr<Level> level_;
  MemSpace space_ = MemSpace::Host; // where the faces were gathered last
  std::vector<double> host_;        // the faces on the host (the exchange; the host's lift)
  Buffer<double> device_;           // and on the device (device vectors)
  WorkVec work_;
};

} // namespace vpatch
