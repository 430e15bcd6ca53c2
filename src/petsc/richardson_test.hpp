// The tolerances of KSPRichardson's fast path (PCApplyRichardson) as PCVPATCH and PCVPATCHMG
// apply them: the unpreconditioned residual ||b - A y|| after each step against
// max(rtol ||b||, abstol) and dtol ||b|| (PETSc's default test, which with a nonzero initial
// guess also measures against ||b||), against the initial residual where b = 0; a NaN or Inf
// residual is divergence. The KSP's choice of the initial residual norm does not reach this
// path. Without rtol and abstol (KSPConvergedSkip's zeros) no test: the steps run as given.
#pragma once
#include <petscpc.h>

namespace vpatch {

class RichardsonTest {
public:
  // no reason yet (PETSc 3.22's PCRICHARDSON_NOT_SET; 3.18 has no name for it)
  static constexpr PCRichardsonConvergedReason go_on = (PCRichardsonConvergedReason)0;
  // bnorm = ||b||, rn = the initial residual's norm
  RichardsonTest(PetscReal bnorm, PetscReal rn, PetscReal rtol, PetscReal abstol, PetscReal dtol)
    : r0_(bnorm == 0 ? rn : bnorm), ttol_(PetscMax(rtol * r0_, abstol)), abstol_(abstol), dtol_(dtol)
  {
  }
  // Why the steps end at residual norm rn; go_on: they don't.
  PCRichardsonConvergedReason operator()(PetscReal rn) const
  {
    if (PetscIsInfOrNanReal(rn) || (dtol_ > 0 && rn > dtol_ * r0_)) return PCRICHARDSON_DIVERGED_DTOL;
    if (rn <= ttol_) return rn < abstol_ ? PCRICHARDSON_CONVERGED_ATOL : PCRICHARDSON_CONVERGED_RTOL;
    return go_on;
  }
  PetscReal reference() const { return r0_; }
  static bool active(PetscReal rtol, PetscReal abstol) { return rtol > 0 || abstol > 0; }

private:
  PetscReal r0_, ttol_, abstol_, dtol_;
};

} // namespace vpatch
