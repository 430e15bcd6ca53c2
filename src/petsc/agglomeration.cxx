#include "agglomeration.hpp"
#include <vector>

namespace vpatch {

Agglomeration::~Agglomeration()
{
  if (gather) (void)PetscSFDestroy(&gather);
}

PetscErrorCode AgglomerationCreate(int level, PetscInt limit, const std::shared_ptr<Level> &twin, std::shared_ptr<Agglomeration> *out)
{
  const Level &L = *twin;
  PetscMPIInt rank;
  size_t parts[3], mine[3];
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(L.comm, &rank));
  char what[64];
  PetscCall(PetscSNPrintf(what, sizeof(what), "cannot gather level %d onto rank 0", level));
  PetscCall(LevelRankPart(L, what, parts, mine));
  const PetscInt n = L.points_per_direction();
  const PetscInt nleaves = rank == 0 ? L.global_points() : 0;
  PetscSFNode *remote;
  PetscCall(PetscMalloc1(nleaves, &remote));
  if (rank == 0) {
    // per direction and point: the owning part and the point's offset in it
    std::vector<PetscInt> part[3], offset[3], extent[3];
    for (PetscInt d = 0; d < 3; ++d) {
      const PetscInt nd = d < L.dim ? n : 1;
      part[d].resize(nd);
      offset[d].resize(nd);
      extent[d].resize(parts[d]);
      for (size_t r = 0; r < parts[d]; ++r) {
        PetscInt s = 0, m = 1;
        if (d < L.dim) LevelOwnedRange(L.cell_ranges[d], L.degree, r, &s, &m);
        extent[d][r] = m;
        for (PetscInt i = s; i < s + m; ++i) {
          part[d][i] = (PetscInt)r;
          offset[d][i] = i - s;
        }
      }
    }
    PetscInt leaf = 0;
    for (PetscInt k = 0; k < (L.dim == 3 ? n : 1); ++k)
      for (PetscInt j = 0; j < n; ++j)
        for (PetscInt i = 0; i < n; ++i, ++leaf) {
          const PetscInt px = part[0][i], py = part[1][j], pz = part[2][k];
          remote[leaf].rank = px + (PetscInt)parts[0] * (py + (PetscInt)parts[1] * pz);
          remote[leaf].index = (offset[2][k] * extent[1][py] + offset[1][j]) * extent[0][px] + offset[0][i];
        }
  }
  auto agg = std::make_shared<Agglomeration>();
  agg->level = level;
  agg->limit = limit;
  agg->twin = twin;
  PetscCall(PetscSFCreate(L.comm, &agg->gather));
  PetscCall(PetscSFSetGraph(agg->gather, (PetscInt)L.box.owned_points(), nleaves, nullptr, PETSC_OWN_POINTER, remote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(agg->gather));
  *out = std::move(agg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelCreateOnRoot(const Level &twin, std::shared_ptr<Level> *root)
{
  PetscMPIInt rank;
  std::vector<PetscInt> ranges[3];
  PetscFunctionBegin;
  root->reset();
  PetscCallMPI(MPI_Comm_rank(twin.comm, &rank));
  if (rank != 0) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt d = 0; d < 3; ++d) ranges[d] = {0, d < twin.dim ? twin.cells : 1};
  PetscCall(LevelCreate(PETSC_COMM_SELF, twin.dim, twin.degree, twin.cells, ranges, root));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
