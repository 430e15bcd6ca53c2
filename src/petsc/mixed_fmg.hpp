// Full multigrid in mixed precision with double-precision level solutions (the
// nested iteration of paper Algorithm 2.2 as iterative refinement on every level): the
// right-hand side is restricted and each level's solution is kept in double; on each level
// the interpolated coarse solution's residual is formed in double, one cycle of the float
// hierarchy is applied to it, and the float correction is added in double. The cycles run
// in float, yet the result is as accurate as the double nested iteration: the float
// rounding is relative to the correction, which is small once the coarse solution is
// interpolated, not to the solution itself (a float full multigrid stops at float accuracy).
#pragma once
#include "hierarchy.hpp"

namespace vpatch {

class MixedFMG {
public:
  // levels.front() is the coarsest: the meshes of the float hierarchy the cycles run on.
  MixedFMG(const std::vector<std::shared_ptr<Level>> &levels, MemSpace space, std::shared_ptr<const Agglomeration> agg = nullptr);
  void set_stream(void *stream);
  // x = full multigrid for A x = b on the finest level (owned double arrays, not aliased).
  PetscErrorCode run(Hierarchy<float> &cycles, const CycleConfig &cfg, const double *b, double *x);

private:
  std::vector<std::unique_ptr<LevelOps<double>>> ops_;
  std::unique_ptr<LevelTransfers<double>> transfers_;
  std::vector<Buffer<double>> b_, x_, r_; // b_, x_ unused on the finest level (the caller's arrays), r_
                                          // where the residual goes to float in one pass
};

} // namespace vpatch
