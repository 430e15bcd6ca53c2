#include "hierarchy.hpp"
#include "logging.hpp"
#include <string>

namespace vpatch {

template <typename Number>
Hierarchy<Number>::Hierarchy(const std::vector<std::shared_ptr<Level>> &levels, MemSpace space, bool dense, bool external_finest,
                             std::shared_ptr<const Agglomeration> agg)
  : external_(external_finest)
{
  std::vector<LevelOps<Number> *> ops;
  for (const auto &L : levels) {
    const size_t n = L ? (size_t)L->box.owned_points() : 0, nbx = external_ && L == levels.back() ? 0 : n;
    ops_.push_back(L ? std::make_unique<LevelOps<Number>>(L, space, dense) : nullptr);
    ops.push_back(ops_.back().get());
    b_.emplace_back(space, nbx);
    x_.emplace_back(space, nbx);
    r_.emplace_back(space, n);
  }
  transfers_ = std::make_unique<LevelTransfers<Number>>(ops, std::move(agg), space);
}

template <typename Number>
void Hierarchy<Number>::set_stream(void *stream)
{
  for (auto &o : ops_)
    if (o) o->set_stream(stream);
  transfers_->set_stream(stream);
}

bool operator==(const SmootherConfig &s, const SmootherConfig &t)
{
  return s.sweep == t.sweep && s.type == t.type && s.damping == t.damping && s.solver == t.solver && s.kernel == t.kernel;
}

bool operator==(const CycleConfig &a, const CycleConfig &b)
{
  return a.smooth_its == b.smooth_its && a.cycles == b.cycles && a.pre == b.pre && a.post == b.post;
}

template <typename Number>
void Hierarchy<Number>::use_graphs(bool on)
{
  graphs_on_ = on;
  graph_level_ = -1;
  for (auto &g : graphs_) g.reset();
  full_graph_.reset();
  if (!have_cuda || !on || !ops_.back() || ops_.back()->space() != MemSpace::Device) return;
  // the levels from the coarsest up to the first distributed one (ghost exchanges through MPI)
  for (int l = 0; l < size() && ops_[l] && !ops_[l]->distributed(); ++l)
    if ((long)ops_[l]->box().owned_points() <= graph_points() && (!external_ || l < size() - 1)) graph_level_ = l;
}

template <typename Number>
PetscErrorCode Hierarchy<Number>::recording_level(int *l) const
{
  PetscBool logging;
  PetscFunctionBegin;
  PetscCall(PetscLogIsActive(&logging));
  *l = logging || capturing_ ? -1 : graph_level_;
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
void Hierarchy<Number>::move(int l, void *stream, bool capturing)
{
  for (int i = 0; i <= l; ++i) ops_[i]->set_stream(stream);
  capturing_ = capturing;
}

template <typename Number>
PetscErrorCode Hierarchy<Number>::prepare_exchanges(const SmootherConfig &cfg)
{
  bool ipc = false, distributed = false, level_ipc;
  PetscFunctionBegin;
  for (const auto &o : ops_)
    if (o && o->distributed()) {
      PetscCall(o->prepare_exchanges(cfg, &level_ipc));
      distributed = true;
      ipc = ipc || level_ipc;
    }
  PetscCall(transfers_->prepare_exchanges(&level_ipc));
  route_ = distributed ? (ipc || level_ipc ? "CUDA IPC" : "PetscSF") : nullptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Replays (or first records) the cycle from zero of levels l and below; done = false where
// none can be recorded (the cycle then runs directly, and no graph is tried again).
template <typename Number>
PetscErrorCode Hierarchy<Number>::graph_cycle(const CycleConfig &cfg, int l, bool *done)
{
  RecordedGraph<CycleConfig> *slot = nullptr;
  void *stream = ops_[l]->stream();
  PetscFunctionBegin;
  for (auto &g : graphs_)
    if (g.ready_for(cfg)) slot = &g;
  if (!slot) { // record this configuration in the other slot
    slot = &graphs_[next_graph_];
    next_graph_ ^= 1;
  }
  const std::string what = "the cycle from zero of levels 0.." + std::to_string(l);
  PetscCall(slot->run(
    cfg, stream, [&](void *s) { move(l, s, s != stream); }, [&] { return cycle_level(cfg, l, true); }, what.c_str(), done));
  if (!*done) graphs_failed();
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode Hierarchy<Number>::cycle_level(const CycleConfig &cfg, int l, bool zero_guess, bool restricted_rhs)
{
  LevelOps<Number> &A = *ops_[l];
  const Number *b = rhs_of(l);
  Number *x = solution(l), *r = r_[l].data();
  PetscFunctionBegin;
  PetscCheck(b && x, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Hierarchy: the external finest level's arrays are not bound");
  if (zero_guess && l == graph_level_) {
    int g = -1;
    bool done;
    PetscCall(recording_level(&g));
    if (g == l) {
      PetscCall(graph_cycle(cfg, l, &done));
      if (done) PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (zero_guess) PetscCall(A.zero(x));
  if (l == 0) { // on 2 cells per direction one patch: one undamped sweep is exact, whatever the levels use; else the levels' smoothing
    PetscCall(PetscLogEventBegin(events.smooth, 0, 0, 0, 0));
    if (A.box().cells == 2) {
      SmootherConfig exact = cfg.pre;
      exact.type = CompositeType::Multiplicative;
      exact.sweep = SweepType::Forward;
      exact.damping = 1.0;
      PetscCall(A.smooth(exact, b, x, zero_guess, restricted_rhs));
    } else { // the pre-smoothing, and where it differs the post-smoothing (a symmetric cycle stays symmetric)
      for (int i = 0; i < cfg.smooth_its; ++i) PetscCall(A.smooth(cfg.pre, b, x, zero_guess && i == 0, restricted_rhs || i > 0));
      if (!(cfg.post == cfg.pre))
        for (int i = 0; i < cfg.smooth_its; ++i) PetscCall(A.smooth(cfg.post, b, x, false, true));
    }
    PetscCall(PetscLogEventEnd(events.smooth, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // x's boundary values are b's after the first smoothing step (or before it: restricted_rhs);
  // the restriction leaves x, the prolongation x's boundary points (its range has zero boundary
  // rows), so no later step sets them again (a pass over the faces, which across x reaches
  // each point in its own DRAM sector: 88 us against 1.2 ms for a float smoothing step at 3D
  // k = 1, 135M DoF, on an H200). The level residual skips its pass over the faces too: the
  // restriction reads no fine boundary value.
  PetscCall(PetscLogEventBegin(events.smooth, 0, 0, 0, 0));
  for (int i = 0; i < cfg.smooth_its; ++i) PetscCall(A.smooth(cfg.pre, b, x, zero_guess && i == 0, restricted_rhs || i > 0));
  PetscCall(PetscLogEventEnd(events.smooth, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(events.residual, 0, 0, 0, 0));
  PetscCall(A.residual(b, x, r, true));
  PetscCall(PetscLogEventEnd(events.residual, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(events.restrict_, 0, 0, 0, 0));
  PetscCall(transfers_->restrict(l, r, b_[l - 1].data()));
  PetscCall(PetscLogEventEnd(events.restrict_, 0, 0, 0, 0));
  if (on_this_rank(l - 1))
    for (int c = 0; c < (l - 1 == 0 ? 1 : cfg.cycles); ++c) PetscCall(cycle_level(cfg, l - 1, c == 0, true));
  PetscCall(PetscLogEventBegin(events.prolong, 0, 0, 0, 0));
  PetscCall(transfers_->prolongate(l, solution(l - 1), x, true));
  PetscCall(PetscLogEventEnd(events.prolong, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(events.smooth, 0, 0, 0, 0));
  for (int i = 0; i < cfg.smooth_its; ++i) PetscCall(A.smooth(cfg.post, b, x, false, true));
  PetscCall(PetscLogEventEnd(events.smooth, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode Hierarchy<Number>::cycle(const CycleConfig &cfg, bool zero_guess)
{
  PetscFunctionBegin;
  PetscCall(cycle_level(cfg, size() - 1, zero_guess));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Nested iteration: restrict b to every level, solve on the coarsest, then on each finer
// level interpolate the coarse solution and apply one cycle from it. Up to the graph level
// as one recording (its arrays the hierarchy's own).
template <typename Number>
PetscErrorCode Hierarchy<Number>::full(const CycleConfig &cfg)
{
  const int f = size() - 1;
  int g = -1;
  bool recorded = false;
  PetscFunctionBegin;
  PetscCheck(rhs_of(f) && solution(f), PETSC_COMM_SELF, PETSC_ERR_ORDER, "Hierarchy: the external finest level's arrays are not bound");
  PetscCall(recording_level(&g));
  const int top = g >= 0 ? g : f; // levels 0..top: the part recorded
  auto bottom = [&]() -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(transfers_->restrict_down(top, 0, rhs_of(top), b_));
    PetscCall(ascend(cfg, 0, top));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  PetscCall(transfers_->restrict_down(f, top, rhs_of(f), b_));
  if (g >= 0) {
    void *stream = ops_[g]->stream();
    const std::string what = "full multigrid of levels 0.." + std::to_string(g);
    PetscCall(full_graph_.run(cfg, stream, [&](void *s) { move(g, s, s != stream); }, bottom, what.c_str(), &recorded));
    if (!recorded) graphs_failed();
  }
  if (!recorded) PetscCall(bottom());
  PetscCall(ascend(cfg, top + 1, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode Hierarchy<Number>::ascend(const CycleConfig &cfg, int from, int to)
{
  PetscFunctionBegin;
  for (int l = from; l <= to; ++l) {
    if (!on_this_rank(l)) continue;
    if (l > 0) {
      PetscCall(PetscLogEventBegin(events.prolong, 0, 0, 0, 0));
      PetscCall(transfers_->prolongate(l, solution(l - 1), solution(l), false));
      PetscCall(PetscLogEventEnd(events.prolong, 0, 0, 0, 0));
    }
    PetscCall(cycle_level(cfg, l, l == 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

template class Hierarchy<float>;
template class Hierarchy<double>;

} // namespace vpatch
