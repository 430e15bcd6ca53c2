// A level's global vectors (the DMDA's layout, plain vectors: the level's DMDA is made only on
// demand, its setup covering every ghosted point) whose VecView and VecLoad use the natural
// (lexicographic) order as a DMDA's: through a vector of the level's DMDA (the same layout),
// whose view and load reorder (files, HDF5 datasets by the vector's name, ASCII output), so
// that they do not depend on the rank grid.
#include "level.hpp"
#include "device_vec_ops.hpp"
#include <petsc/private/petscimpl.h> // donotPetscObjectPrintClassNamePrefixType

namespace vpatch {

// The level of a vector of LevelCreateGlobalVec: its DM's, or its own.
static PetscErrorCode VecLevel(Vec v, std::shared_ptr<Level> *L)
{
  DM dm;
  PetscFunctionBegin;
  PetscCall(VecGetDM(v, &dm));
  PetscCall(LevelQuery(dm ? (PetscObject)dm : (PetscObject)v, L));
  PetscCheck(*L, PetscObjectComm((PetscObject)v), PETSC_ERR_ARG_WRONG, "vpatch: a level's vector that carries neither its DM nor its level");
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <bool Load>
static PetscErrorCode ViewOrLoad(Vec v, PetscViewer viewer)
{
  std::shared_ptr<Level> L;
  DM da;
  Vec w;
  const char *name;
  PetscInt n;
  PetscFunctionBegin;
  PetscCall(VecLevel(v, &L));
  PetscCall(LevelGetDA(*L, &da)); // (checks that its layout is the level's)
  PetscCall(DMCreateGlobalVector(da, &w));
  PetscCall(PetscObjectGetName((PetscObject)v, &name));
  PetscCall(PetscObjectSetName((PetscObject)w, name));
  ((PetscObject)w)->donotPetscObjectPrintClassNamePrefixType = PETSC_TRUE; // VecView(v) printed v's
  PetscCall(VecGetLocalSize(v, &n));
  Vec from = Load ? w : v, to = Load ? v : w;
  if (Load) PetscCall(VecLoad(w, viewer));
  const PetscScalar *a;
  PetscScalar *b;
  PetscCall(VecGetArrayRead(from, &a));
  PetscCall(VecGetArrayWrite(to, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayWrite(to, &b));
  PetscCall(VecRestoreArrayRead(from, &a));
  if (!Load) PetscCall(VecView(w, viewer));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelCreateGlobalVec(const std::shared_ptr<Level> &L, VecType vtype, DM dm, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(VecCreate(L->comm, v));
  PetscCall(VecSetSizes(*v, (PetscInt)L->box.owned_points(), L->global_points()));
  PetscCall(VecSetType(*v, vtype ? vtype : VECSTANDARD));
  if (dm) PetscCall(VecSetDM(*v, dm));
  else PetscCall(LevelCompose((PetscObject)*v, L));
  PetscCall(VecSetOperation(*v, VECOP_VIEW, (void (*)(void))ViewOrLoad<false>));
  PetscCall(VecSetOperation(*v, VECOP_LOAD, (void (*)(void))ViewOrLoad<true>));
  PetscCall(VecUseDeviceMultiOps(*v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
