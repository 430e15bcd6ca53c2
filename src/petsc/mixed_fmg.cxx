#include "mixed_fmg.hpp"
#include "logging.hpp"
#include <algorithm>
#include <cmath>
#include <string>

namespace vpatch {

MixedFMG::MixedFMG(const std::vector<std::shared_ptr<Level>> &levels, MemSpace space, std::shared_ptr<const Agglomeration> agg)
{
  const size_t f = levels.size() - 1;
  std::vector<LevelOps<double> *> ops;
  for (size_t l = 0; l < levels.size(); ++l) {
    ops_.push_back(levels[l] ? std::make_unique<LevelOps<double>>(levels[l], space, false) : nullptr);
    ops.push_back(ops_.back().get());
    const size_t n = levels[l] ? (size_t)levels[l]->box.owned_points() : 0;
    b_.emplace_back(space, l < f ? n : 0);
    x_.emplace_back(space, l < f ? n : 0);
    r_.emplace_back(space, ops_[l] && ops_[l]->residual_in_one_pass() ? 0 : n); // r (b - A x or A x) only where the residual takes two passes
  }
  transfers_ = std::make_unique<LevelTransfers<double>>(ops, std::move(agg), space);
}

void MixedFMG::set_stream(void *stream)
{
  for (auto &o : ops_)
    if (o) o->set_stream(stream);
  transfers_->set_stream(stream);
}

PetscErrorCode MixedFMG::residual(Hierarchy<float> &cycles, int l, const double *b, const double *x, PetscReal *norm)
{
  LevelOps<double> &A = *ops_[l];
  const size_t n = (size_t)A.box().owned_points();
  double *r = r_[l].data();
  PetscFunctionBegin;
  const bool one_pass = A.residual_in_one_pass();
  double sum = 0; // the norm's square, summed in the pass that writes the float residual
  // Two passes: r = b - A x in the operator's (in_kernel), or r = A x there and b - A x in the
  // conversion's; then the rounding to float with the squares
  const bool in_kernel = A.residual_in_kernel();
  PetscCall(PetscLogEventBegin(events.residual, 0, 0, 0, 0));
  if (one_pass) PetscCall(A.residual_one_pass(b, x, cycles.rhs(l), norm ? &sum : nullptr));
  else if (in_kernel) PetscCall(A.residual(b, x, r));
  else PetscCall(A.apply(x, r));
  PetscCall(PetscLogEventEnd(events.residual, 0, 0, 0, 0));
  if (!one_pass) {
    PetscCall(PetscLogEventBegin(events.convert, 0, 0, 0, 0));
    sum = difference_to_float(A.space(), n, in_kernel ? r : b, in_kernel ? nullptr : r, cycles.rhs(l), A.stream(), norm != nullptr);
    PetscCall(PetscLogEventEnd(events.convert, 0, 0, 0, 0));
  }
  if (norm) PetscCall(norm_over_ranks(l, sum, norm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// (collective: levels on every rank, the finest)
PetscErrorCode MixedFMG::norm_over_ranks(int l, double sum_squares, PetscReal *norm) const
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sum_squares, 1, MPI_DOUBLE, MPI_SUM, ops_[l]->level().comm));
  *norm = (PetscReal)std::sqrt(sum_squares);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MixedFMG::correct_residual(Hierarchy<float> &cycles, const CycleConfig &cfg, int l, const double *b, const double *x, double *x_out,
                                          PetscReal *norm)
{
  double sum = 0;
  PetscFunctionBegin;
  PetscCall(cycles.cycle_level(cfg, l, true));
  PetscCall(PetscLogEventBegin(events.residual, 0, 0, 0, 0));
  PetscCall(ops_[l]->corrected_residual_to_float(b, x, cycles.solution(l), x_out, cycles.rhs(l), &sum));
  PetscCall(PetscLogEventEnd(events.residual, 0, 0, 0, 0));
  PetscCall(norm_over_ranks(l, sum, norm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MixedFMG::correct(Hierarchy<float> &cycles, const CycleConfig &cfg, int l, double *x, bool add)
{
  LevelOps<double> &A = *ops_[l];
  PetscFunctionBegin;
  PetscCall(cycles.cycle_level(cfg, l, true));
  PetscCall(PetscLogEventBegin(events.convert, 0, 0, 0, 0));
  convert(A.space(), (size_t)A.box().owned_points(), cycles.solution(l), x, A.stream(), add);
  PetscCall(PetscLogEventEnd(events.convert, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Up to the float hierarchy's graph level as one recording (MixedFMG's arrays and the float
// hierarchy's own there).
PetscErrorCode MixedFMG::run(Hierarchy<float> &cycles, const CycleConfig &cfg, const double *b, double *x)
{
  const int f = finest();
  int g = -1;
  bool recorded = false;
  auto rhs = [&](int l) -> const double * { return l == f ? b : b_[l].data(); };
  auto sol = [&](int l) { return l == f ? x : x_[l].data(); };
  // on levels from..to upwards: x_l = the interpolated coarse solution (level 0: zero) + the
  // float cycle of its residual
  auto ascend = [&](int from, int to) -> PetscErrorCode {
    PetscFunctionBegin;
    for (int l = from; l <= to; ++l) {
      if (!ops_[l]) continue; // a coarse level on rank 0 alone
      double *xl = sol(l);
      if (l == 0) PetscCall(ops_[l]->zero(xl));
      else {
        PetscCall(PetscLogEventBegin(events.prolong, 0, 0, 0, 0));
        PetscCall(transfers_->prolongate(l, sol(l - 1), xl, false));
        PetscCall(PetscLogEventEnd(events.prolong, 0, 0, 0, 0));
      }
      PetscCall(residual(cycles, l, rhs(l), xl));
      PetscCall(correct(cycles, cfg, l, xl)); // x_l += the correction
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  PetscFunctionBegin;
  PetscCheck(cycles.size() == f + 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MixedFMG: %d float levels for %d double levels", cycles.size(), f + 1);
  PetscCall(cycles.recording_level(&g));
  g = std::min(g, f - 1);         // (the finest level's arrays are the caller's)
  const bool record = g >= 0;
  const int top = record ? g : f; // levels 0..top: the part recorded
  auto bottom = [&]() -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(transfers_->restrict_down(top, 0, rhs(top), b_));
    PetscCall(ascend(0, top));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  PetscCall(transfers_->restrict_down(f, top, b, b_));
  if (record) {
    void *stream = ops_[g]->stream();
    auto move = [&](void *s) {
      for (int l = 0; l <= g; ++l) ops_[l]->set_stream(s);
      cycles.move(g, s, s != stream);
    };
    const std::string what = "mixed-precision full multigrid of levels 0.." + std::to_string(g);
    PetscCall(graph_.run(RecordingKey{cfg, &cycles, g}, stream, move, bottom, what.c_str(), &recorded));
    if (!recorded) cycles.graphs_failed();
  }
  if (!recorded) PetscCall(bottom());
  PetscCall(ascend(top + 1, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
