// A multigrid hierarchy of vpatch levels in one Number type and memory space, with its own
// V/W-cycle and full multigrid (paper Algorithms 2.1 and 2.2): the engine of PCVPATCHMG,
// the single-precision inner shell of a double-precision Krylov method.
#pragma once
#include "level_ops.hpp"
#include <vector>

namespace vpatch {

struct CycleConfig {
  SmootherConfig smoother;
  int smooth_its = 1; // pre- and post-smoothing sweeps
  int cycles = 1;     // 1: V-cycle, 2: W-cycle
};

template <typename Number>
class Hierarchy {
public:
  // levels.front() is the coarsest; all levels share the memory space.
  Hierarchy(const std::vector<std::shared_ptr<Level>> &levels, MemSpace space, bool dense);
  int size() const { return (int)ops_.size(); }
  LevelOps<Number> &level(int l) { return *ops_[l]; }
  void set_stream(void *stream);
  Number *rhs(int l) { return b_[l].data(); }
  Number *solution(int l) { return x_[l].data(); }

  // x_finest = cycle applied to b_finest: from zero (cycle) or nested iteration (full).
  PetscErrorCode cycle(const CycleConfig &cfg, bool zero_guess);
  PetscErrorCode full(const CycleConfig &cfg);
  // x_l = cycle on level l (levels l and below) applied to b_l.
  PetscErrorCode cycle_level(const CycleConfig &cfg, int l, bool zero_guess);

private:
  std::vector<std::unique_ptr<LevelOps<Number>>> ops_;
  std::vector<std::unique_ptr<TransferOps<Number>>> transfers_; // transfers_[l]: level l-1 -> l
  std::vector<Buffer<Number>> b_, x_, r_;
};

} // namespace vpatch
