// PETSc helpers for the multigrid tests: move whole vectors between a vpatch DM's global
// ordering and the natural lexicographic ordering (x fastest) held redundantly on every rank.
#pragma once
#include <petscdmda.h>
#include <vector>
#include <vpatch.h>

namespace mgref {

// natural (full length, identical on all ranks) -> g (global vector of the vpatch DM)
inline PetscErrorCode ToGlobal(DM dm, const std::vector<double> &natural, Vec g)
{
  DM da;
  Vec nat;
  PetscInt lo, hi;
  PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(VPatchDMGetDA(dm, &da));
  PetscCall(DMDACreateNaturalVector(da, &nat));
  PetscCall(VecGetOwnershipRange(nat, &lo, &hi));
  PetscCall(VecGetArray(nat, &a));
  for (PetscInt i = lo; i < hi; ++i) a[i - lo] = natural[(size_t)i];
  PetscCall(VecRestoreArray(nat, &a));
  PetscCall(DMDANaturalToGlobalBegin(da, nat, INSERT_VALUES, g));
  PetscCall(DMDANaturalToGlobalEnd(da, nat, INSERT_VALUES, g));
  PetscCall(VecDestroy(&nat));
  PetscFunctionReturn(0);
}

// g (global vector of the vpatch DM) -> natural ordering, the whole vector on every rank
inline PetscErrorCode ToNatural(DM dm, Vec g, std::vector<double> &natural)
{
  DM da;
  Vec nat, all;
  VecScatter sc;
  PetscInt n;
  const PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(VPatchDMGetDA(dm, &da));
  PetscCall(DMDACreateNaturalVector(da, &nat));
  PetscCall(DMDAGlobalToNaturalBegin(da, g, INSERT_VALUES, nat));
  PetscCall(DMDAGlobalToNaturalEnd(da, g, INSERT_VALUES, nat));
  PetscCall(VecScatterCreateToAll(nat, &sc, &all));
  PetscCall(VecScatterBegin(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetSize(all, &n));
  PetscCall(VecGetArrayRead(all, &a));
  natural.assign(a, a + n);
  PetscCall(VecRestoreArrayRead(all, &a));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&all));
  PetscCall(VecDestroy(&nat));
  PetscFunctionReturn(0);
}

} // namespace mgref
