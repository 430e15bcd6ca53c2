#include "level.hpp"
#include "logging.hpp"
#include "sweep_halo.hpp"
#include <algorithm>
#include <limits>

namespace vpatch {

Level::~Level()
{
  sweep.reset(); // the level's own PetscSFs
  if (closure) (void)PetscSFDestroy(&closure);
  if (ghosts) (void)PetscSFDestroy(&ghosts);
  if (da) (void)DMDestroy(&da);
  if (comm != MPI_COMM_NULL) (void)PetscCommDestroy(&comm);
}

PetscInt Level::global_points() const
{
  PetscInt n = points_per_direction(), total = 1;
  for (PetscInt d = 0; d < dim; ++d) total *= n;
  return total;
}

PetscErrorCode LevelCheckVec(const Level &L, Vec v, const char *what)
{
  PetscInt n, N;
  int ok, all;
  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetSize(v, &N));
  ok = n == (PetscInt)L.box.owned_points() && N == L.global_points();
  PetscCallMPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, L.comm));
  PetscCheck(all, L.comm, PETSC_ERR_ARG_SIZ,
             "%s: a vector of size %" PetscInt_FMT " (local %" PetscInt_FMT " on this rank) for a vpatch level of %" PetscInt_FMT
             " points (not in the level's layout: create it from the DM or the operator)",
             what, N, n, L.global_points());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelPartition(MPI_Comm comm, PetscInt dim, PetscInt cells, const PetscInt fixed[3], std::vector<PetscInt> ranges[3])
{
  PetscMPIInt size;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (PetscInt d = 0; d < dim; ++d)
    PetscCheck(fixed[d] == PETSC_DECIDE || (fixed[d] >= 1 && fixed[d] <= cells), comm, PETSC_ERR_ARG_OUTOFRANGE,
               "-da_processors_%c %" PetscInt_FMT ": a mesh of %" PetscInt_FMT " cells per direction takes 1 to %" PetscInt_FMT " ranks in a direction", "xyz"[d],
               fixed[d], cells, cells);
  // Rank grid: the most balanced factorization with at most `cells` ranks per direction.
  PetscInt best[3] = {0, 0, 0}, bestmax = PETSC_MAX_INT;
  for (PetscInt m = 1; m <= size; ++m) {
    if (size % m) continue;
    for (PetscInt n = 1; n <= size / m; ++n) {
      if ((size / m) % n) continue;
      const PetscInt p = size / m / n;
      if (dim == 2 && p != 1) continue;
      const PetscInt f[3] = {m, n, p};
      bool ok = true;
      PetscInt mx = 0;
      for (PetscInt d = 0; d < dim; ++d) {
        ok = ok && f[d] <= cells && (fixed[d] == PETSC_DECIDE || f[d] == fixed[d]);
        mx = std::max(mx, f[d]);
      }
      // prefer balanced grids, then more ranks in the slowest direction (contiguous slabs)
      if (ok && (mx < bestmax || (mx == bestmax && f[dim - 1] > best[dim - 1]))) {
        bestmax = mx;
        std::copy(f, f + 3, best);
      }
    }
  }
  PetscCheck(bestmax != PETSC_MAX_INT || fixed[0] != PETSC_DECIDE || fixed[1] != PETSC_DECIDE || fixed[2] != PETSC_DECIDE, comm, PETSC_ERR_ARG_INCOMP,
             "Cannot split a mesh of %" PetscInt_FMT " cells per direction over %d MPI ranks: every rank needs at least one cell per direction",
             cells, (int)size);
  PetscCheck(bestmax != PETSC_MAX_INT, comm, PETSC_ERR_ARG_INCOMP,
             "No rank grid of %d MPI ranks has the ranks per direction that -da_processors_x/y/z give (%" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT
             ", %d: free) for a mesh of %" PetscInt_FMT " cells per direction",
             (int)size, fixed[0], fixed[1], fixed[2], (int)PETSC_DECIDE, cells);
  for (PetscInt d = 0; d < 3; ++d) {
    const PetscInt parts = d < dim ? best[d] : 1;
    PetscInt g = 1; // largest power of two dividing cells with cells/g >= parts
    while ((cells / g) % 2 == 0 && cells / g / 2 >= parts) g *= 2; // (2 g overflows for cells = 2^30)
    const PetscInt units = cells / g;
    ranges[d].assign(parts + 1, 0);
    for (PetscInt r = 0; r < parts; ++r) ranges[d][r + 1] = ranges[d][r] + g * (units / parts + (r < units % parts ? 1 : 0));
    if (d >= dim) ranges[d] = {0, 1};
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void LevelOwnedRange(const std::vector<PetscInt> &ranges, PetscInt degree, size_t r, PetscInt *start, PetscInt *extent)
{
  *start = ranges[r] * degree;
  *extent = (ranges[r + 1] - ranges[r]) * degree + (r + 2 == ranges.size() ? 1 : 0);
}

// The rank grid of the level's cell ranges and a rank's part in it (the DMDA's numbering, x fastest).
static PetscErrorCode RankGrid(const Level &L, size_t parts[3], size_t part[3])
{
  PetscMPIInt rank, size;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(L.comm, &rank));
  PetscCallMPI(MPI_Comm_size(L.comm, &size));
  for (PetscInt d = 0; d < 3; ++d) parts[d] = d < L.dim ? L.cell_ranges[d].size() - 1 : 1;
  PetscCheck(parts[0] * parts[1] * parts[2] == (size_t)size, L.comm, PETSC_ERR_PLIB, "vpatch: a rank grid of %zu x %zu x %zu for %d ranks", parts[0],
             parts[1], parts[2], (int)size);
  part[0] = (size_t)rank % parts[0];
  part[1] = (size_t)rank / parts[0] % parts[1];
  part[2] = (size_t)rank / (parts[0] * parts[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelRankPart(const Level &L, const char *what, size_t parts[3], size_t part[3])
{
  PetscMPIInt same = 1, all;
  PetscFunctionBegin;
  PetscCall(RankGrid(L, parts, part));
  for (PetscInt d = 0; d < L.dim; ++d) {
    PetscInt s, m;
    LevelOwnedRange(L.cell_ranges[d], L.degree, part[d], &s, &m);
    same = same && s == L.box.os[d] && m == L.box.om[d];
  }
  PetscCallMPI(MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, L.comm));
  PetscCheck(all, L.comm, PETSC_ERR_PLIB, "vpatch: a rank's owned points differ from its cell ranges' (%s)", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PartLayout LevelOwnedLayout(const Level &L, PetscInt d, PetscInt below, PetscInt above)
{
  if (d >= L.dim) return {{0, 1}};
  PartLayout out(L.cell_ranges[d].size() - 1);
  for (size_t r = 0; r < out.size(); ++r) {
    PetscInt s, m;
    LevelOwnedRange(L.cell_ranges[d], L.degree, r, &s, &m);
    const PetscInt lo = std::max<PetscInt>(s - below, 0), hi = std::min<PetscInt>(s + m + above, L.points_per_direction());
    out[r] = {lo, hi - lo};
  }
  return out;
}

PetscErrorCode LevelGhostSF(const Level &L, const Box &b, const int lo[3], const int hi[3], const PartLayout roots[3], PetscSF *sf)
{
  size_t parts[3], me[3];
  std::vector<PetscInt> owner[3]; // per direction and point: the part owning it
  std::vector<PetscInt> leaves;
  std::vector<PetscSFNode> remote;
  PetscFunctionBegin;
  PetscCall(LevelRankPart(L, "a ghost exchange", parts, me));
  const PartLayout owned[3] = {LevelOwnedLayout(L, 0), LevelOwnedLayout(L, 1), LevelOwnedLayout(L, 2)};
  for (int d = 0; d < 3; ++d) // the region within box's layout, which holds this rank's owned points
    PetscCheck(b.os[d] == owned[d][me[d]].first && b.om[d] == owned[d][me[d]].second && lo[d] >= b.gs[d] && hi[d] <= b.gs[d] + b.gm[d], PETSC_COMM_SELF,
               PETSC_ERR_PLIB, "vpatch: a ghost exchange's region or box does not fit the level's layout (direction %d)", d);
  for (PetscInt d = 0; d < 3; ++d) {
    owner[d].resize(d < L.dim ? L.points_per_direction() : 1);
    for (size_t r = 0; r < owned[d].size(); ++r)
      for (PetscInt i = owned[d][r].first; i < owned[d][r].first + owned[d][r].second; ++i) owner[d][i] = (PetscInt)r;
  }
  auto visit = [&](int i, int j, int l) {
    const PetscInt px = owner[0][i], py = owner[1][j], pz = owner[2][l];
    const auto &rx = roots[0][px], &ry = roots[1][py], &rz = roots[2][pz];
    leaves.push_back(b.local_index(i, j, l));
    remote.push_back({px + (PetscInt)parts[0] * (py + (PetscInt)parts[1] * pz), ((l - rz.first) * ry.second + (j - ry.first)) * rx.second + (i - rx.first)});
  };
  const int own_lo = b.os[0], own_hi = b.os[0] + b.om[0];
  for (int l = lo[2]; l < hi[2]; ++l)
    for (int j = lo[1]; j < hi[1]; ++j) {
      if (owner[1][j] != (PetscInt)me[1] || owner[2][l] != (PetscInt)me[2]) {
        for (int i = lo[0]; i < hi[0]; ++i) visit(i, j, l);
        continue;
      }
      for (int i = lo[0]; i < std::min(hi[0], own_lo); ++i) visit(i, j, l); // a row through the owned box: its x ghosts only
      for (int i = std::max(lo[0], own_hi); i < hi[0]; ++i) visit(i, j, l);
    }
  const PetscInt nroots = roots[0][me[0]].second * roots[1][me[1]].second * roots[2][me[2]].second;
  PetscCall(PetscSFCreate(L.comm, sf));
  PetscCall(PetscSFSetGraph(*sf, nroots, (PetscInt)leaves.size(), leaves.data(), PETSC_COPY_VALUES, remote.data(), PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(*sf));
  PetscFunctionReturn(PETSC_SUCCESS);
}


PetscErrorCode LevelGetDA(Level &L, DM *da)
{
  PetscFunctionBegin;
  if (!L.da) {
    const PetscInt n = L.points_per_direction();
    std::vector<PetscInt> own[3];
    for (PetscInt d = 0; d < L.dim; ++d)
      for (const auto &part : LevelOwnedLayout(L, d)) own[d].push_back(part.second);
    if (L.dim == 2) {
      PetscCall(DMDACreate2d(L.comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, n, n, (PetscInt)own[0].size(),
                             (PetscInt)own[1].size(), 1, L.degree, own[0].data(), own[1].data(), &L.da));
    } else {
      PetscCall(DMDACreate3d(L.comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, n, n, n,
                             (PetscInt)own[0].size(), (PetscInt)own[1].size(), (PetscInt)own[2].size(), 1, L.degree, own[0].data(),
                             own[1].data(), own[2].data(), &L.da));
    }
    PetscCall(DMSetUp(L.da));
    PetscInt xs[3], xm[3], gxs[3], gxm[3];
    int      same = 1;
    PetscCall(DMDAGetCorners(L.da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
    PetscCall(DMDAGetGhostCorners(L.da, &gxs[0], &gxs[1], &gxs[2], &gxm[0], &gxm[1], &gxm[2]));
    for (int d = 0; d < 3; ++d) same = same && xs[d] == L.box.os[d] && xm[d] == L.box.om[d] && gxs[d] == L.box.gs[d] && gxm[d] == L.box.gm[d];
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, L.comm));
    PetscCheck(same, L.comm, PETSC_ERR_PLIB, "vpatch: the DMDA lays out the points otherwise than the level's box");
  }
  *da = L.da;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Level::ghosts (every ghost point of the ghosted box) and Level::closure (those of the closure
// of the rank's cells, [cs k, ce k] per direction).
// The closure (full: false) or the full ghost exchange of a level on several ranks.
static PetscErrorCode LevelMakeGhostSF(Level &L, bool full, PetscSF *sf)
{
  const Box &b = L.box;
  int lo[3], hi[3];
  PetscFunctionBegin;
  for (int d = 0; d < 3; ++d) {
    lo[d] = full ? b.gs[d] : d < b.dim ? b.cs[d] * b.degree : 0;
    hi[d] = full ? b.gs[d] + b.gm[d] : d < b.dim ? b.ce[d] * b.degree + 1 : 1;
  }
  const PartLayout owned[3] = {LevelOwnedLayout(L, 0), LevelOwnedLayout(L, 1), LevelOwnedLayout(L, 2)};
  PetscCall(LevelGhostSF(L, b, lo, hi, owned, sf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelGetGhosts(Level &L, PetscSF *sf)
{
  PetscFunctionBegin;
  if (!L.ghosts) {
    PetscCall(PetscLogEventBegin(events.level_setup, 0, 0, 0, 0));
    PetscCall(LevelMakeGhostSF(L, true, &L.ghosts));
    PetscCall(PetscLogEventEnd(events.level_setup, 0, 0, 0, 0));
  }
  *sf = L.ghosts;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelCreate(MPI_Comm comm, PetscInt dim, PetscInt degree, PetscInt cells, const std::vector<PetscInt> ranges[3],
                           std::shared_ptr<Level> *out)
{
  auto L = std::make_shared<Level>();
  PetscMPIInt size;
  PetscFunctionBegin;
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "vpatch supports dimension 2 or 3, not %" PetscInt_FMT, dim);
  PetscCheck(degree >= 1 && degree <= kMaxDegree, comm, PETSC_ERR_ARG_OUTOFRANGE, "vpatch supports degree 1 to %d, not %" PetscInt_FMT,
             kMaxDegree, degree);
  PetscCheck(cells >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "The number of cells per direction must be at least 1, not %" PetscInt_FMT, cells);
  { // the global number of points as a PetscInt, and a plane of the kernels' local arrays as an int
    const double n = (double)cells * degree + 1, total = dim == 2 ? n * n : n * n * n;
    PetscCheck(total <= (double)PETSC_MAX_INT, comm, PETSC_ERR_ARG_OUTOFRANGE,
               "Q%" PetscInt_FMT " on %" PetscInt_FMT "^%" PetscInt_FMT " cells has %.0f unknowns, more than PetscInt holds (%" PetscInt_FMT
               "): use fewer cells, or a PETSc configured --with-64-bit-indices",
               degree, cells, dim, total, (PetscInt)PETSC_MAX_INT);
    PetscCheck(n * n <= (double)std::numeric_limits<int>::max(), comm, PETSC_ERR_ARG_OUTOFRANGE,
               "Q%" PetscInt_FMT " on %" PetscInt_FMT " cells per direction has %.0f points per direction: a plane of them is more than the 32-bit "
               "offsets of the kernels hold (%d)",
               degree, cells, n, std::numeric_limits<int>::max());
  }
  PetscCall(PetscCommDuplicate(comm, &L->comm, nullptr));
  PetscCallMPI(MPI_Comm_size(L->comm, &size));
  L->dim = dim;
  L->degree = degree;
  L->cells = cells;
  for (PetscInt d = 0; d < dim; ++d) {
    L->cell_ranges[d] = ranges[d];
    for (size_t r = 0; r + 1 < ranges[d].size(); ++r)
      PetscCheck(ranges[d][r + 1] > ranges[d][r], comm, PETSC_ERR_ARG_INCOMP,
                 "Cannot distribute %" PetscInt_FMT " cells per direction over %d ranks in direction %d: a rank would own no cell", cells,
                 (int)(ranges[d].size() - 1), (int)d);
  }
  int os[3] = {0, 0, 0}, om[3] = {1, 1, 1}, gs[3] = {0, 0, 0}, gm[3] = {1, 1, 1};
  if (size > 1) { // the rank's owned points and its ghosted box (k deep) as the DMDA of LevelGetDA lays them out
    size_t parts[3], part[3];
    PetscCall(RankGrid(*L, parts, part));
    for (PetscInt d = 0; d < dim; ++d) {
      const auto owned = LevelOwnedLayout(*L, d)[part[d]], ghosted = LevelOwnedLayout(*L, d, degree, degree)[part[d]];
      os[d] = (int)owned.first; om[d] = (int)owned.second; gs[d] = (int)ghosted.first; gm[d] = (int)ghosted.second;
    }
  } else { // one rank: every point owned, no ghosts (no periodic directions)
    for (PetscInt d = 0; d < dim; ++d) om[d] = gm[d] = (int)L->points_per_direction();
  }
  L->box = make_box((int)dim, (int)degree, (int)cells, os, om, gs, gm);
  L->element = std::make_unique<Element1D>((int)degree);
  L->matrices = std::make_unique<Level1D>(*L->element, (int)cells);
  if (size > 1) { // the exchanges' graphs with the level, not inside the first solve
    const SweepHalo *halo;
    PetscCall(PetscLogEventBegin(events.level_setup, 0, 0, 0, 0));
    PetscCall(LevelMakeGhostSF(*L, false, &L->closure));
    PetscCall(LevelGetSweepHalo(*L, &halo));
    PetscCall(PetscLogEventEnd(events.level_setup, 0, 0, 0, 0));
  }
  *out = std::move(L);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelCoarsen(const Level &fine, std::shared_ptr<Level> *coarse)
{
  MPI_Comm comm = fine.comm;
  std::vector<PetscInt> ranges[3];
  PetscFunctionBegin;
  PetscCheck(fine.cells % 2 == 0, comm, PETSC_ERR_ARG_INCOMP,
             "Cannot coarsen a mesh of %" PetscInt_FMT " cells per direction: the number of cells must be even (use fewer multigrid levels)",
             fine.cells);
  for (PetscInt d = 0; d < 3; ++d) {
    if (d >= fine.dim) {
      ranges[d] = {0, 1};
      continue;
    }
    for (PetscInt c : fine.cell_ranges[d]) {
      PetscCheck(c % 2 == 0, comm, PETSC_ERR_ARG_INCOMP,
                 "Cannot coarsen %" PetscInt_FMT " cells per direction on this rank grid: the ranks' cell ranges are not even (use fewer levels or ranks)",
                 fine.cells);
      ranges[d].push_back(c / 2);
    }
  }
  PetscCall(LevelCreate(comm, fine.dim, fine.degree, fine.cells / 2, ranges, coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LevelHolderDestroy(void *ptr)
{
  delete static_cast<std::shared_ptr<Level> *>(ptr);
  return PETSC_SUCCESS;
}

PetscErrorCode LevelCompose(PetscObject obj, const std::shared_ptr<Level> &level)
{
  PetscContainer c;
  PetscFunctionBegin;
  PetscCall(PetscContainerCreate(PetscObjectComm(obj), &c));
  PetscCall(PetscContainerSetPointer(c, new std::shared_ptr<Level>(level)));
  PetscCall(PetscContainerSetUserDestroy(c, LevelHolderDestroy));
  PetscCall(PetscObjectCompose(obj, "VPatchLevel", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LevelQuery(PetscObject obj, std::shared_ptr<Level> *level)
{
  PetscContainer c = nullptr;
  PetscFunctionBegin;
  level->reset();
  PetscCall(PetscObjectQuery(obj, "VPatchLevel", (PetscObject *)&c));
  if (c) {
    void *ptr;
    PetscCall(PetscContainerGetPointer(c, &ptr));
    *level = *static_cast<std::shared_ptr<Level> *>(ptr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch
