#include "mixed_fmg.hpp"
#include "logging.hpp"

namespace vpatch {

MixedFMG::MixedFMG(const std::vector<std::shared_ptr<Level>> &levels, MemSpace space)
{
  const size_t f = levels.size() - 1;
  for (size_t l = 0; l < levels.size(); ++l) {
    ops_.push_back(std::make_unique<LevelOps<double>>(levels[l], space, false));
    const size_t n = (size_t)levels[l]->box.owned_points();
    b_.emplace_back(space, l < f ? n : 0);
    x_.emplace_back(space, l < f ? n : 0);
    r_.emplace_back(space, ops_[l]->residual_to_float_in_one_pass() ? 0 : n); // double r only where the residual takes two passes
  }
  transfers_.resize(ops_.size());
  for (size_t l = 1; l < ops_.size(); ++l) transfers_[l] = std::make_unique<TransferOps<double>>(*ops_[l - 1], *ops_[l]);
}

void MixedFMG::set_stream(void *stream)
{
  for (auto &o : ops_) o->set_stream(stream);
}

PetscErrorCode MixedFMG::run(Hierarchy<float> &cycles, const CycleConfig &cfg, const double *b, double *x)
{
  const int f = (int)ops_.size() - 1;
  auto rhs = [&](int l) -> const double * { return l == f ? b : b_[l].data(); };
  auto sol = [&](int l) { return l == f ? x : x_[l].data(); };
  PetscFunctionBegin;
  PetscCheck(cycles.size() == f + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MixedFMG: %d float levels for %d double levels", cycles.size(), f + 1);
  PetscCall(PetscLogEventBegin(events.restrict_, 0, 0, 0, 0));
  for (int l = f; l > 0; --l) PetscCall(transfers_[l]->restrict(rhs(l), b_[l - 1].data()));
  PetscCall(PetscLogEventEnd(events.restrict_, 0, 0, 0, 0));
  for (int l = 0; l <= f; ++l) {
    LevelOps<double> &A = *ops_[l];
    const size_t n = (size_t)A.box().owned_points();
    double *xl = sol(l), *r = r_[l].data();
    PetscCall(A.zero(xl));
    if (l > 0) {
      PetscCall(PetscLogEventBegin(events.prolong, 0, 0, 0, 0));
      PetscCall(transfers_[l]->prolongate_add(sol(l - 1), xl));
      PetscCall(PetscLogEventEnd(events.prolong, 0, 0, 0, 0));
    }
    const bool one_pass = !r; // r_[l] is empty where the residual goes to float in one pass (constructor)
    PetscCall(PetscLogEventBegin(events.residual, 0, 0, 0, 0));
    if (one_pass) PetscCall(A.residual_to_float(rhs(l), xl, cycles.rhs(l)));
    else PetscCall(A.residual(rhs(l), xl, r));
    PetscCall(PetscLogEventEnd(events.residual, 0, 0, 0, 0));
    if (!one_pass) {
      PetscCall(PetscLogEventBegin(events.convert, 0, 0, 0, 0));
      convert(A.space(), n, r, cycles.rhs(l), A.stream());
      PetscCall(PetscLogEventEnd(events.convert, 0, 0, 0, 0));
    }
    PetscCall(cycles.cycle_level(cfg, l, true));
    PetscCall(PetscLogEventBegin(events.convert, 0, 0, 0, 0));
    convert(A.space(), n, cycles.solution(l), xl, A.stream(), true); // x_l += the correction
    PetscCall(PetscLogEventEnd(events.convert, 0, 0, 0, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
