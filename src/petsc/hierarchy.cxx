#include "hierarchy.hpp"
#include "logging.hpp"

namespace vpatch {

template <typename Number>
Hierarchy<Number>::Hierarchy(const std::vector<std::shared_ptr<Level>> &levels, MemSpace space, bool dense, bool external_finest)
  : external_(external_finest)
{
  for (const auto &L : levels) {
    ops_.push_back(std::make_unique<LevelOps<Number>>(L, space, dense));
    const size_t n = (size_t)L->box.owned_points(), nbx = external_ && L == levels.back() ? 0 : n;
    b_.emplace_back(space, nbx);
    x_.emplace_back(space, nbx);
    r_.emplace_back(space, n);
  }
  transfers_.resize(ops_.size());
  for (size_t l = 1; l < ops_.size(); ++l) transfers_[l] = std::make_unique<TransferOps<Number>>(*ops_[l - 1], *ops_[l]);
}

template <typename Number>
void Hierarchy<Number>::set_stream(void *stream)
{
  for (auto &o : ops_) o->set_stream(stream);
}

template <typename Number>
PetscErrorCode Hierarchy<Number>::cycle_level(const CycleConfig &cfg, int l, bool zero_guess)
{
  LevelOps<Number> &A = *ops_[l];
  const Number *b = rhs_of(l);
  Number *x = solution(l), *r = r_[l].data();
  PetscFunctionBegin;
  PetscCheck(b && x, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Hierarchy: the external finest level's arrays are not bound");
  if (zero_guess) PetscCall(A.zero(x));
  if (l == 0) { // one undamped multiplicative sweep: exact on 2 cells per direction, whatever the levels use
    SmootherConfig coarse = cfg.smoother;
    coarse.type = CompositeType::Multiplicative;
    coarse.sweep = SweepType::Forward;
    coarse.damping = 1.0;
    PetscCall(PetscLogEventBegin(events.smooth, 0, 0, 0, 0));
    PetscCall(A.smooth(coarse, b, x, zero_guess));
    PetscCall(PetscLogEventEnd(events.smooth, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(events.smooth, 0, 0, 0, 0));
  for (int i = 0; i < cfg.smooth_its; ++i) PetscCall(A.smooth(cfg.smoother, b, x, zero_guess && i == 0));
  PetscCall(PetscLogEventEnd(events.smooth, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(events.mult, 0, 0, 0, 0));
  PetscCall(A.residual(b, x, r));
  PetscCall(PetscLogEventEnd(events.mult, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(events.restrict_, 0, 0, 0, 0));
  PetscCall(transfers_[l]->restrict(r, b_[l - 1].data()));
  PetscCall(PetscLogEventEnd(events.restrict_, 0, 0, 0, 0));
  for (int c = 0; c < (l - 1 == 0 ? 1 : cfg.cycles); ++c) PetscCall(cycle_level(cfg, l - 1, c == 0));
  PetscCall(PetscLogEventBegin(events.prolong, 0, 0, 0, 0));
  PetscCall(transfers_[l]->prolongate_add(solution(l - 1), x));
  PetscCall(PetscLogEventEnd(events.prolong, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(events.smooth, 0, 0, 0, 0));
  for (int i = 0; i < cfg.smooth_its; ++i) PetscCall(A.smooth(cfg.smoother, b, x));
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
// level interpolate the coarse solution and apply one cycle from it.
template <typename Number>
PetscErrorCode Hierarchy<Number>::full(const CycleConfig &cfg)
{
  PetscFunctionBegin;
  PetscCheck(rhs_of(size() - 1) && solution(size() - 1), PETSC_COMM_SELF, PETSC_ERR_ORDER, "Hierarchy: the external finest level's arrays are not bound");
  PetscCall(PetscLogEventBegin(events.restrict_, 0, 0, 0, 0));
  for (int l = size() - 1; l > 0; --l) PetscCall(transfers_[l]->restrict(rhs_of(l), b_[l - 1].data()));
  PetscCall(PetscLogEventEnd(events.restrict_, 0, 0, 0, 0));
  PetscCall(cycle_level(cfg, 0, true));
  for (int l = 1; l < size(); ++l) {
    PetscCall(ops_[l]->zero(solution(l)));
    PetscCall(PetscLogEventBegin(events.prolong, 0, 0, 0, 0));
    PetscCall(transfers_[l]->prolongate_add(solution(l - 1), solution(l)));
    PetscCall(PetscLogEventEnd(events.prolong, 0, 0, 0, 0));
    PetscCall(cycle_level(cfg, l, false));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

template class Hierarchy<float>;
template class Hierarchy<double>;

} // namespace vpatch
