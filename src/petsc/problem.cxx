// The paper's test problem on a vpatch DM: right-hand side and L2 error.
#include "../../include/vpatch.h"
#include "../core/cpu/kernels_cpu.hpp"
#include "../core/dispatch.hpp"
#include "../core/problem.hpp"
#include "level.hpp"
#include <petscsf.h>

using namespace vpatch;

// b = the load vector of a separable f (fill(box, element, array) writes the owned entries).
template <typename Fill>
static PetscErrorCode FormRHS(DM dm, Vec b, Fill &&fill)
{
  std::shared_ptr<Level> L;
  PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(LevelQuery((PetscObject)dm, &L));
  PetscCheck(L, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "Not a vpatch DM");
  PetscCall(LevelCheckVec(*L, b, "the right-hand side"));
  PetscCall(VecGetArrayWrite(b, &a));
  fill(L->box, *L->element, a);
  PetscCall(VecRestoreArrayWrite(b, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VPatchFormSineRHS(DM dm, Vec b)
{
  return FormRHS(dm, b, [](const Box &box, const Element1D &e, PetscScalar *a) { sine_rhs(box, e, a); });
}

PetscErrorCode VPatchFormConstantRHS(DM dm, Vec b)
{
  return FormRHS(dm, b, [](const Box &box, const Element1D &e, PetscScalar *a) { constant_rhs(box, e, a); });
}

PetscErrorCode VPatchComputeSineL2Error(DM dm, Vec u, PetscReal *error)
{
  std::shared_ptr<Level> L;
  const PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(LevelQuery((PetscObject)dm, &L));
  PetscCheck(L, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "Not a vpatch DM");
  PetscCall(LevelCheckVec(*L, u, "VPatchComputeSineL2Error"));
  // the ghosted local values (on one rank the owned array is the local one)
  const bool one_rank = L->box.local_is_owned();
  PetscScalar *local = nullptr;
  if (!one_rank) PetscCall(PetscMalloc1((size_t)L->box.local_points(), &local));
  PetscCall(VecGetArrayRead(u, &a));
  if (!one_rank) {
    cpu::copy_owned(L->box, true, a, local);
    PetscSF ghosts;
    PetscCall(LevelGetGhosts(*L, &ghosts));
    PetscCall(PetscSFBcastBegin(ghosts, MPIU_SCALAR, a, local, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(ghosts, MPIU_SCALAR, a, local, MPI_REPLACE));
  }
  const PetscScalar *values = one_rank ? a : local;
  double sum = dispatch((int)L->dim, (int)L->degree, [&](auto D, auto K) { return sine_l2_error_squared<D(), K()>(L->box, *L->element, values); });
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscCall(PetscFree(local));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)dm)));
  *error = std::sqrt(sum);
  PetscFunctionReturn(PETSC_SUCCESS);
}
