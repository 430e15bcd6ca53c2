// Full multigrid and iterative refinement in mixed precision, the double side of
// PCVPATCHMG's float hierarchy. Full multigrid with double-precision level solutions (the
// nested iteration of paper Algorithm 2.2 as iterative refinement on every level): the
// right-hand side is restricted and each level's solution is kept in double; on each level
// the interpolated coarse solution's residual is formed in double, one cycle of the float
// hierarchy is applied to it, and the float correction is added in double. The cycles run
// in float, yet the result is as accurate as the double nested iteration: the float
// rounding is relative to the correction, which is small once the coarse solution is
// interpolated, not to the solution itself (a float full multigrid stops at float accuracy).
// The same two steps on the finest level are PCVPATCHMG's Richardson iteration in single
// precision (PCApplyRichardson).
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
  // The refinement steps on level l (owned arrays of the level): the float right-hand side of
  // level l = (float)(b - A x), formed in double, with norm: the 2-norm of that float vector
  // over the ranks (summed in double); then x += the float cycle on level l from zero (x =
  // it where !add).
  PetscErrorCode residual(Hierarchy<float> &cycles, int l, const double *b, const double *x, PetscReal *norm = nullptr);
  PetscErrorCode correct(Hierarchy<float> &cycles, const CycleConfig &cfg, int l, double *x, bool add = true);
  // Both in one pass over level l where corrects_in_residual(l) (a device level of the gather
  // operator): the cycle, then x_out = x + its correction and the float right-hand side =
  // (float)(b - A x_out) with its norm (x_out apart from x: the pass reads x around each point).
  bool corrects_in_residual(int l) const { return ops_[l] && ops_[l]->residual_to_float_corrects(); }
  PetscErrorCode correct_residual(Hierarchy<float> &cycles, const CycleConfig &cfg, int l, const double *b, const double *x, double *x_out, PetscReal *norm);
  int finest() const { return (int)ops_.size() - 1; }
  PetscErrorCode copy(int l, const double *x, double *y) const { return ops_[l]->copy(x, y); } // y = x on level l

private:
  PetscErrorCode norm_over_ranks(int l, double sum_squares, PetscReal *norm) const;
  std::vector<std::unique_ptr<LevelOps<double>>> ops_;
  std::unique_ptr<LevelTransfers<double>> transfers_;
  // run() up to the float hierarchy's graph level, below the finest: the recording holds that
  // hierarchy's arrays as well as these
  struct RecordingKey {
    CycleConfig cfg;
    const Hierarchy<float> *cycles = nullptr;
    int level = -1;
    bool operator==(const RecordingKey &o) const { return cfg == o.cfg && cycles == o.cycles && level == o.level; }
  };
  RecordedGraph<RecordingKey> graph_;
  std::vector<Buffer<double>> b_, x_, r_; // b_, x_ unused on the finest level (the caller's arrays), r_
                                          // (b - A x or A x) empty where the residual goes to float in one pass
};

} // namespace vpatch
