// Right-hand sides, interpolants and L2 errors on a vpatch DM: the paper's test problem and a
// user's functions (homogeneous or not Dirichlet data).
#include "../../include/vpatch.h"
#include "../core/cpu/kernels_cpu.hpp"
#include "../core/dispatch.hpp"
#include "../core/problem.hpp"
#include "level.hpp"
#include <petsc/private/petscimpl.h>
#include <petscsf.h>

using namespace vpatch;

// The level of a vpatch DM and its check of v's layout (the NULL checks also where PETSc's
// argument checks are compiled out).
static PetscErrorCode GetLevel(DM dm, Vec v, const char *what, std::shared_ptr<Level> *L)
{
  PetscFunctionBegin;
  PetscCheck(dm && v, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "%s: the %s is NULL", what, dm ? "vector" : "DM");
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(LevelQuery((PetscObject)dm, L));
  PetscCheck(*L, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "%s: not a vpatch DM", what);
  PetscCall(LevelCheckVec(**L, v, what));
  // a vector of another vpatch mesh whose size happens to match (Q2 on 8 cells, Q4 on 4), or
  // of the same mesh on another rank grid
  DM vdm;
  std::shared_ptr<Level> VL;
  PetscCall(VecGetDM(v, &vdm));
  if (vdm && vdm != dm) PetscCall(LevelQuery((PetscObject)vdm, &VL));
  const auto same_ranges = [&] {
    for (int d = 0; d < 3; ++d)
      if (VL->cell_ranges[d] != (*L)->cell_ranges[d]) return false;
    return true;
  };
  PetscCheck(!VL || (VL->dim == (*L)->dim && VL->degree == (*L)->degree && VL->cells == (*L)->cells && same_ranges()), PetscObjectComm((PetscObject)dm),
             PETSC_ERR_ARG_INCOMP,
             "%s: the vector belongs to the vpatch DM of Q%" PetscInt_FMT " on %" PetscInt_FMT " cells in %" PetscInt_FMT "D, not to this one, Q%" PetscInt_FMT
             " on %" PetscInt_FMT " cells in %" PetscInt_FMT "D (or to one with another rank grid)",
             what, VL ? VL->degree : 0, VL ? VL->cells : 0, VL ? VL->dim : 0, (*L)->degree, (*L)->cells, (*L)->dim);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// b = the load vector of a separable f (fill(box, element, array) writes the owned entries).
template <typename Fill>
static PetscErrorCode FormRHS(DM dm, Vec b, const char *what, Fill &&fill)
{
  std::shared_ptr<Level> L;
  PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(GetLevel(dm, b, what, &L));
  PetscCall(VecGetArrayWrite(b, &a));
  fill(L->box, *L->element, a);
  PetscCall(VecRestoreArrayWrite(b, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VPatchFormSineRHS(DM dm, Vec b)
{
  return FormRHS(dm, b, "VPatchFormSineRHS", [](const Box &box, const Element1D &e, PetscScalar *a) { sine_rhs(box, e, a); });
}

PetscErrorCode VPatchFormConstantRHS(DM dm, Vec b)
{
  return FormRHS(dm, b, "VPatchFormConstantRHS", [](const Box &box, const Element1D &e, PetscScalar *a) { constant_rhs(box, e, a); });
}

// A user's point function as the core's callable f(x) -> double; the first error it returns
// is kept (later points are not evaluated) for the caller to return.
struct PointFunction {
  VPatchPointFunction f;
  void *ctx;
  PetscInt dim;
  PetscErrorCode *ierr;
  double operator()(const double *x) const
  {
    PetscScalar v = 0;
    if (f && !*ierr) *ierr = f(dim, 0.0, x, 1, &v, ctx);
    return PetscRealPart(v);
  }
};

// A point function's error on any rank is an error on every rank of the DM's communicator:
// the others' results (a load vector summed across ranks, a reduced norm) would be wrong.
// Called where every rank has evaluated its points (no rank has left a collective early).
static PetscErrorCode PointFunctionError(DM dm, PetscErrorCode ierr, const char *what)
{
  PetscMPIInt mine = (PetscMPIInt)ierr, any;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)dm)));
  PetscCall(ierr); // the rank whose function failed: its own error
  PetscCheck(!any, PETSC_COMM_SELF, (PetscErrorCode)any, "%s: the point function failed on another rank", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The ghosted local array of the level (the owned array itself on one rank).
class LocalArray {
public:
  explicit LocalArray(const Level &L) : one_rank_(L.box.local_is_owned()) {}
  ~LocalArray() { (void)PetscFree(local_); }
  PetscErrorCode Allocate(const Level &L, PetscScalar *owned)
  {
    PetscFunctionBegin;
    if (one_rank_) local_ = nullptr;
    else PetscCall(PetscCalloc1((size_t)L.box.local_points(), &local_));
    data_ = one_rank_ ? owned : local_;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscScalar *data() const { return data_; }
  // owned = the owned points of local plus the ghosts' sums from the other ranks
  PetscErrorCode SumInto(Level &L, PetscScalar *owned) const
  {
    PetscSF ghosts;
    PetscFunctionBegin;
    if (one_rank_) PetscFunctionReturn(PETSC_SUCCESS);
    cpu::copy_owned(L.box, false, local_, owned);
    PetscCall(LevelGetGhosts(L, &ghosts));
    PetscCall(PetscSFReduceBegin(ghosts, MPIU_SCALAR, local_, owned, MPI_SUM));
    PetscCall(PetscSFReduceEnd(ghosts, MPIU_SCALAR, local_, owned, MPI_SUM));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // local = owned with the ghosts from their owners
  PetscErrorCode Fill(Level &L, const PetscScalar *owned)
  {
    PetscSF ghosts;
    PetscFunctionBegin;
    if (one_rank_) {
      data_ = const_cast<PetscScalar *>(owned); // read only
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(Allocate(L, nullptr));
    cpu::copy_owned(L.box, true, owned, local_);
    PetscCall(LevelGetGhosts(L, &ghosts));
    PetscCall(PetscSFBcastBegin(ghosts, MPIU_SCALAR, owned, local_, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(ghosts, MPIU_SCALAR, owned, local_, MPI_REPLACE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

private:
  bool one_rank_;
  PetscScalar *local_ = nullptr, *data_ = nullptr;
};

// a = u at the rank's owned points (boundary_only: at those on the domain boundary).
static void SetOwnedPoints(const Level &L, const PointFunction &u, bool boundary_only, PetscScalar *a)
{
  const Box &box = L.box;
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j)
      for (int i = box.os[0]; i < box.os[0] + box.om[0]; ++i) {
        if (boundary_only && !box.on_boundary(i, j, l)) continue;
        double x[3];
        support_point(box, *L.element, i, j, l, x);
        a[box.owned_index(i, j, l)] = u(x);
      }
}

PetscErrorCode VPatchFormRHS(DM dm, VPatchPointFunction f, VPatchPointFunction g, void *ctx, Vec b)
{
  std::shared_ptr<Level> L;
  PetscScalar *a;
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscFunctionBegin;
  PetscCall(GetLevel(dm, b, "VPatchFormRHS", &L));
  const Box &box = L->box;
  const PointFunction F{f, ctx, L->dim, &ierr}, G{g, ctx, L->dim, &ierr};
  LocalArray local(*L);
  PetscCall(VecGetArrayWrite(b, &a));
  PetscCall(PetscArrayzero(a, (size_t)box.owned_points()));
  PetscCall(local.Allocate(*L, a));
  dispatch((int)L->dim, (int)L->degree, [&](auto D, auto K) {
    if (f) load_vector<D(), K()>(box, *L->element, F, local.data());
    if (g) subtract_boundary_coupling<D(), K()>(box, *L->element, L->matrices->cell_mass.data(), L->matrices->cell_stiffness.data(), G, local.data());
    return 0;
  });
  PetscCall(local.SumInto(*L, a));
  SetOwnedPoints(*L, G, true, a); // identity rows: the boundary values
  PetscCall(VecRestoreArrayWrite(b, &a));
  PetscCall(PointFunctionError(dm, ierr, "VPatchFormRHS"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VPatchInterpolateFunction(DM dm, VPatchPointFunction u, void *ctx, Vec v)
{
  std::shared_ptr<Level> L;
  PetscScalar *a;
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscFunctionBegin;
  PetscCall(GetLevel(dm, v, "VPatchInterpolateFunction", &L));
  PetscCheck(u, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_NULL, "VPatchInterpolateFunction: no function given");
  const PointFunction U{u, ctx, L->dim, &ierr};
  PetscCall(VecGetArrayWrite(v, &a));
  SetOwnedPoints(*L, U, false, a);
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscCall(PointFunctionError(dm, ierr, "VPatchInterpolateFunction"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The L2 norm of u_h - exact over the rank's cells, summed over the ranks.
template <typename L2Squared>
static PetscErrorCode ComputeL2(DM dm, Vec u, const char *what, L2Squared &&l2_squared, PetscReal *error)
{
  std::shared_ptr<Level> L;
  const PetscScalar *a;
  PetscFunctionBegin;
  PetscCheck(error, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "%s: the result's address is NULL", what);
  PetscCall(GetLevel(dm, u, what, &L));
  LocalArray local(*L);
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(local.Fill(*L, a));
  double sum = dispatch((int)L->dim, (int)L->degree, [&](auto D, auto K) { return l2_squared(D, K, *L, local.data()); });
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)dm)));
  *error = std::sqrt(sum);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VPatchComputeSineL2Error(DM dm, Vec u, PetscReal *error)
{
  return ComputeL2(
    dm, u, "VPatchComputeSineL2Error",
    [](auto D, auto K, const Level &L, const double *values) { return sine_l2_error_squared<decltype(D)::value, decltype(K)::value>(L.box, *L.element, values); },
    error);
}

PetscErrorCode VPatchComputeL2Diff(DM dm, Vec u, VPatchPointFunction exact, void *ctx, PetscReal *diff)
{
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscFunctionBegin;
  PetscCall(ComputeL2(
    dm, u, "VPatchComputeL2Diff",
    [&](auto D, auto K, const Level &L, const double *values) {
      const PointFunction U{exact, ctx, L.dim, &ierr};
      return l2_error_squared<decltype(D)::value, decltype(K)::value>(L.box, *L.element, values, U, false); // (a user's function: one thread)
    },
    diff));
  PetscCall(PointFunctionError(dm, ierr, "VPatchComputeL2Diff"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
