// A multigrid hierarchy of vpatch levels in one Number type and memory space, with its own
// V/W-cycle and full multigrid (paper Algorithms 2.1 and 2.2): the engine of PCVPATCHMG,
// the single-precision inner shell of a double-precision Krylov method.
#pragma once
#include "level_transfers.hpp"
#include "recorded_graph.hpp"
#include <vector>

namespace vpatch {

struct CycleConfig {
  SmootherConfig pre;  // the smoother before the coarse correction
  SmootherConfig post; // after it: pre itself, or its transpose (a symmetric cycle, for CG)
  int smooth_its = 1;  // pre- and post-smoothing sweeps
  int cycles = 1;      // 1: V-cycle, 2: W-cycle
};
bool operator==(const SmootherConfig &a, const SmootherConfig &b);
bool operator==(const CycleConfig &a, const CycleConfig &b);

template <typename Number>
class Hierarchy {
public:
  // levels.front() is the coarsest; all levels share the memory space. external_finest:
  // the finest level's b and x are the caller's arrays, named by bind_finest() before each
  // cycle (PCVPATCHMG in PETSc's scalar type: no copies in and out, two vectors less).
  // agg: the coarse levels on rank 0 alone (levels[l] is null on the other ranks), or null.
  Hierarchy(const std::vector<std::shared_ptr<Level>> &levels, MemSpace space, bool dense, bool external_finest = false,
            std::shared_ptr<const Agglomeration> agg = nullptr);
  int size() const { return (int)ops_.size(); }
  LevelOps<Number> &level(int l) { return *ops_[l]; }
  bool on_this_rank(int l) const { return ops_[l] != nullptr; }
  void set_stream(void *stream);
  void bind_finest(const Number *b, Number *x)
  {
    finest_b_ = b;
    finest_x_ = x;
  }
  // Level l's right-hand side and solution (the bound arrays on an external finest level;
  // its right-hand side is only read).
  Number *rhs(int l) { return b_[l].data(); }
  const Number *rhs_of(int l) const { return external_ && l == size() - 1 ? finest_b_ : b_[l].data(); }
  Number *solution(int l) { return external_ && l == size() - 1 ? finest_x_ : x_[l].data(); }

  // x_finest = cycle applied to b_finest: from zero (cycle) or nested iteration (full).
  PetscErrorCode cycle(const CycleConfig &cfg, bool zero_guess);
  PetscErrorCode full(const CycleConfig &cfg);
  // x_l = cycle on level l (levels l and below) applied to b_l. restricted_rhs: b_l is the
  // restriction of the finer level's residual (zero boundary rows, TransferOps::restrict) and
  // x_l zero or an earlier cycle's on it, so x_l's boundary values are b_l's already.
  PetscErrorCode cycle_level(const CycleConfig &cfg, int l, bool zero_guess, bool restricted_rhs = false);

  // CUDA graphs (device memory, levels on one rank): the finest level with at most
  // graph_points() points and the levels below it (all their arrays the hierarchy's own, none
  // of them distributed: on several ranks the levels that are on rank 0 alone) are the graph
  // level and below. Their cycles from zero, and full multigrid up to the graph level (in
  // MixedFMG at most up to the level below the finest), are
  // recorded once per configuration and replayed by one launch, where a launch per kernel
  // would leave the GPU waiting on the host (the small levels are latency-bound). Not while
  // PETSc logs events (they time and count each kernel on the host).
  void use_graphs(bool on);
  // The ghost exchanges of the distributed levels set up now (collective): "CUDA IPC" or
  // "PetscSF" after it, nullptr before it or where no level is distributed.
  PetscErrorCode prepare_exchanges(const SmootherConfig &cfg);
  const char *exchange_route() const { return route_; }
  bool graphs_requested() const { return graphs_on_; }
  static constexpr long graph_points() { return 1L << 21; }
  int graph_level() const { return graph_level_; }
  // For a recording that spans this hierarchy's cycles and work of its own (MixedFMG's full
  // multigrid): *l = the graph level where a recording may run now (-1: none: no graphs, PETSc
  // logging, or a recording under way); move(l, s, capturing): levels 0..l on stream s, and
  // while capturing no replay of a recorded cycle inside (a recording records kernels).
  PetscErrorCode recording_level(int *l) const;
  void move(int l, void *stream, bool capturing);
  void graphs_failed() { graph_level_ = -1; } // a recording failed: no more tries

private:
  PetscErrorCode graph_cycle(const CycleConfig &cfg, int l, bool *done);
  // full multigrid's step upwards: on levels from..to the coarse solution interpolated (level
  // 0: none) and a cycle from it
  PetscErrorCode ascend(const CycleConfig &cfg, int from, int to);
  std::vector<std::unique_ptr<LevelOps<Number>>> ops_;
  std::unique_ptr<LevelTransfers<Number>> transfers_;
  std::vector<Buffer<Number>> b_, x_, r_;
  bool external_ = false;
  const Number *finest_b_ = nullptr;
  Number *finest_x_ = nullptr;
  bool graphs_on_ = false;
  int graph_level_ = -1; // the top of the recordings: cycles from zero, full multigrid (-1: none)
  bool capturing_ = false;
  const char *route_ = nullptr;
  // two recorded cycles from zero (their configurations): PCApply's and PCApplyTranspose's,
  // which Krylov methods such as BiCG alternate; full multigrid up to the graph level
  RecordedGraph<CycleConfig> graphs_[2], full_graph_;
  int next_graph_ = 0; // the slot a new configuration takes
};

} // namespace vpatch
