#include "level_transfers.hpp"
#include "logging.hpp"

namespace vpatch {

template <typename Number>
LevelTransfers<Number>::LevelTransfers(const std::vector<LevelOps<Number> *> &ops, std::shared_ptr<const Agglomeration> agg, MemSpace space)
  : agg_(std::move(agg))
{
  t_.resize(ops.size());
  if (agg_ && agg_->level + 1 < (int)ops.size()) {
    twin_ = std::make_unique<LevelOps<Number>>(agg_->twin, space, false);
    const size_t n = (size_t)agg_->twin->box.owned_points();
    twin_b_ = Buffer<Number>(space, n);
    twin_x_ = Buffer<Number>(space, n);
  }
  for (size_t l = 1; l < ops.size(); ++l) {
    LevelOps<Number> *coarse = crosses((int)l) ? twin_.get() : ops[l - 1];
    if (coarse && ops[l]) t_[l] = std::make_unique<TransferOps<Number>>(*coarse, *ops[l]);
  }
}

template <typename Number>
void LevelTransfers<Number>::set_stream(void *stream)
{
  if (twin_) twin_->set_stream(stream);
}

template <typename Number>
PetscErrorCode LevelTransfers<Number>::restrict(int l, const Number *fine, Number *coarse)
{
  PetscFunctionBegin;
  if (!crosses(l)) {
    PetscCall(t_[l]->restrict(fine, coarse));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(t_[l]->restrict(fine, twin_b_.data()));
  PetscCall(twin_->bcast(agg_->gather, twin_b_.data(), coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelTransfers<Number>::restrict_down(int from, int to, const Number *bf, std::vector<Buffer<Number>> &b)
{
  PetscFunctionBegin;
  if (from <= to) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(events.restrict_, 0, 0, 0, 0));
  for (int l = from; l > to; --l)
    if (t_[l]) PetscCall(restrict(l, l == from ? bf : b[l].data(), b[l - 1].data()));
  PetscCall(PetscLogEventEnd(events.restrict_, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelTransfers<Number>::prolongate(int l, const Number *coarse, Number *fine, bool add)
{
  PetscFunctionBegin;
  if (!crosses(l)) {
    PetscCall(t_[l]->prolongate(coarse, fine, add));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(twin_->reduce(agg_->gather, coarse, twin_x_.data(), true)); // one leaf per root
  PetscCall(t_[l]->prolongate(twin_x_.data(), fine, add));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelTransfers<Number>::prepare_exchanges(bool *ipc) const
{
  PetscFunctionBegin;
  *ipc = false;
  if (twin_) PetscCall(twin_->prepare_exchange(agg_->gather, ipc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template class LevelTransfers<float>;
template class LevelTransfers<double>;

} // namespace vpatch
