#include "sweep_halo.hpp"

namespace vpatch {

SweepHalo::~SweepHalo()
{
  if (sf) (void)PetscSFDestroy(&sf);
}

namespace {
PetscErrorCode SweepHaloCreate(const Level &L, std::unique_ptr<SweepHalo> *out)
{
  size_t parts[3], me[3];
  PetscFunctionBegin;
  PetscCall(LevelRankPart(L, "the sweep halo", parts, me));
  const PetscInt   k = L.degree; // the sweep layout: the owned points, k before them and k + 1 after them
  const PartLayout layout[3] = {LevelOwnedLayout(L, 0, k, k + 1), LevelOwnedLayout(L, 1, k, k + 1), LevelOwnedLayout(L, 2, k, k + 1)};
  auto h = std::make_unique<SweepHalo>();
  h->box = L.box;
  h->box.halo_patches = true;
  int hi[3];
  for (int d = 0; d < 3; ++d) {
    h->box.gs[d] = (int)layout[d][me[d]].first;
    h->box.gm[d] = (int)layout[d][me[d]].second;
    hi[d] = h->box.gs[d] + h->box.gm[d];
  }
  // leaves: the points of this rank's sweep layout that it does not own; roots: the same
  // points in their owner's sweep layout
  PetscCall(LevelGhostSF(L, h->box, h->box.gs, hi, layout, &h->sf));
  *out = std::move(h);
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace

PetscErrorCode LevelGetSweepHalo(Level &L, const SweepHalo **halo)
{
  PetscFunctionBegin;
  if (!L.sweep) PetscCall(SweepHaloCreate(L, &L.sweep));
  *halo = L.sweep.get();
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
