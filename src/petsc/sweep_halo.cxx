#include "sweep_halo.hpp"
#include <algorithm>
#include <vector>

namespace vpatch {

SweepHalo::~SweepHalo()
{
  if (sf) (void)PetscSFDestroy(&sf);
}

namespace {
// Part r's points along one direction in the sweep layout: its owned ones, k before them and
// k + 1 after them, within the mesh.
struct SweepRange {
  PetscInt owned_start, owned_end, start, extent;
};

std::vector<SweepRange> SweepRanges(const Level &L, PetscInt d)
{
  std::vector<SweepRange> out;
  if (d >= L.dim) return {{0, 1, 0, 1}};
  const PetscInt n = L.points_per_direction(), k = L.degree;
  for (size_t r = 0; r + 1 < L.cell_ranges[d].size(); ++r) {
    PetscInt s, m;
    LevelOwnedRange(L.cell_ranges[d], k, r, &s, &m);
    const PetscInt lo = std::max<PetscInt>(s - k, 0), hi = std::min<PetscInt>(s + m + k + 1, n);
    out.push_back({s, s + m, lo, hi - lo});
  }
  return out;
}

PetscErrorCode SweepHaloCreate(const Level &L, std::unique_ptr<SweepHalo> *out)
{
  size_t parts[3], me[3];
  std::vector<SweepRange> range[3];
  std::vector<PetscInt> owner[3]; // per direction and global point: the part owning it
  PetscFunctionBegin;
  PetscCall(LevelRankPart(L, "the sweep halo", parts, me));
  for (PetscInt d = 0; d < 3; ++d) {
    range[d] = SweepRanges(L, d);
    owner[d].resize(d < L.dim ? L.points_per_direction() : 1);
    for (size_t r = 0; r < range[d].size(); ++r)
      for (PetscInt i = range[d][r].owned_start; i < range[d][r].owned_end; ++i) owner[d][i] = (PetscInt)r;
  }
  auto h = std::make_unique<SweepHalo>();
  h->box = L.box;
  h->box.halo_patches = true;
  for (int d = 0; d < 3; ++d) {
    h->box.gs[d] = (int)range[d][me[d]].start;
    h->box.gm[d] = (int)range[d][me[d]].extent;
  }
  const Box &b = h->box;
  // leaves: the points of this rank's sweep layout that it does not own; roots: the same
  // points in their owner's sweep layout
  std::vector<PetscInt>    leaves;
  std::vector<PetscSFNode> remote;
  for (int l = b.gs[2]; l < b.gs[2] + b.gm[2]; ++l)
    for (int j = b.gs[1]; j < b.gs[1] + b.gm[1]; ++j)
      for (int i = b.gs[0]; i < b.gs[0] + b.gm[0]; ++i) {
        const PetscInt px = owner[0][i], py = owner[1][j], pz = owner[2][l];
        if (px == (PetscInt)me[0] && py == (PetscInt)me[1] && pz == (PetscInt)me[2]) continue;
        const SweepRange &rx = range[0][px], &ry = range[1][py], &rz = range[2][pz];
        leaves.push_back(b.local_index(i, j, l));
        remote.push_back({px + (PetscInt)parts[0] * (py + (PetscInt)parts[1] * pz), ((l - rz.start) * ry.extent + (j - ry.start)) * rx.extent + (i - rx.start)});
      }
  PetscCall(PetscSFCreate(L.comm, &h->sf));
  PetscCall(PetscSFSetGraph(h->sf, (PetscInt)b.local_points(), (PetscInt)leaves.size(), leaves.data(), PETSC_COPY_VALUES, remote.data(), PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(h->sf));
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
