// One multigrid level of the vpatch discretization, shared by its DM, operator, transfers
// and smoother: the mesh, the rank's Box of support points (ownership aligned to cells), the
// ghost-exchange patterns, the 1D matrices. Reference-counted through a PetscContainer composed on
// each PETSc object that uses it.
#pragma once
#include "../core/element1d.hpp"
#include "../core/layout.hpp"
#include "compat.hpp"
#include <memory>
#include <petscdmda.h>
#include <vector>

namespace vpatch {

struct SweepHalo;

struct Level {
  MPI_Comm comm = MPI_COMM_NULL;        // PETSc's inner communicator of the level (held, released by the destructor)
  PetscInt dim = 0, degree = 0, cells = 0;
  std::vector<PetscInt> cell_ranges[3]; // per direction: rank r owns cells [ranges[r], ranges[r+1])
  // DMDA over the (cells*degree+1)^dim support points, box stencil of width degree, laid out
  // as box: made on first request (LevelGetDA: the DM's global-to-local hooks) only, since no
  // solve needs it and its setup (a mapping and a scatter of every ghosted point) would be the
  // largest part of building a level.
  DM da = nullptr;
  Box box{};
  std::unique_ptr<Element1D> element;
  std::unique_ptr<Level1D> matrices;
  // Roots: the owned points (a global vector's array); leaves: the ghost points of the rank's
  // ghosted box (ghosts) or those in the closure of its cells (closure: the planes after its
  // last points, where another rank follows; all that the operator, its diagonal and the
  // transfers read and write beyond the owned points). From the cell ranges (LevelGhostSF),
  // not from the DMDA: closure made with the level on several ranks, ghosts on first use
  // (LevelGetGhosts; the Global kernel, the additive type and the L2 error need it).
  PetscSF ghosts = nullptr, closure = nullptr;
  std::unique_ptr<SweepHalo> sweep;     // the in-place sweep's layout and ghost update (LevelGetSweepHalo)

  ~Level();
  PetscInt points_per_direction() const { return cells * degree + 1; }
  PetscInt global_points() const;
};

// Build a level whose rank grid splits the cell ranges given (one vector per direction).
PetscErrorCode LevelCreate(MPI_Comm comm, PetscInt dim, PetscInt degree, PetscInt cells, const std::vector<PetscInt> ranges[3],
                           std::shared_ptr<Level> *level);
// Choose a rank grid (with fixed[d] ranks in direction d unless PETSC_DECIDE) and cell ranges
// for a fine mesh: ranges aligned to the largest power of two possible, so that coarsening
// keeps them nested.
PetscErrorCode LevelPartition(MPI_Comm comm, PetscInt dim, PetscInt cells, const PetscInt fixed[3], std::vector<PetscInt> ranges[3]);
// The level with half the cells per direction and every rank's cells halved.
PetscErrorCode LevelCoarsen(const Level &fine, std::shared_ptr<Level> *coarse);
// The level's DMDA, made now if it was not yet (collective on the level's comm).
PetscErrorCode LevelGetDA(Level &level, DM *da);
// The first support point and the number of them that part r of a direction's cell ranges
// owns (its cells' first points, and the direction's last point on the last part), as the
// DMDA of LevelGetDA distributes them.
void LevelOwnedRange(const std::vector<PetscInt> &ranges, PetscInt degree, size_t r, PetscInt *start, PetscInt *extent);
// The rank grid (parts per direction, 1 beyond dim) and this rank's part in it (the DMDA's
// numbering, x fastest), checked on every rank against the owned points of its Box
// (collective on the level's comm); `what` names the caller in the error.
PetscErrorCode LevelRankPart(const Level &level, const char *what, size_t parts[3], size_t part[3]);

// Per rank part of one direction: the first point and the extent of that part's array.
using PartLayout = std::vector<std::pair<PetscInt, PetscInt>>;
// The parts' owned points (LevelOwnedRange) along direction d, widened by `below` and `above`
// points within the mesh ({(0, 1)} beyond dim): the owned layout, the ghosted boxes (k, k), the
// sweep layout (k, k + 1).
PartLayout LevelOwnedLayout(const Level &level, PetscInt d, PetscInt below = 0, PetscInt above = 0);
// A PetscSF whose leaves are the points of box's ghosted layout in [lo, hi) (per direction)
// that this rank does not own, and whose roots are the same points in their owners' arrays of
// layout roots[d] (collective on the level's comm).
PetscErrorCode LevelGhostSF(const Level &level, const Box &box, const int lo[3], const int hi[3], const PartLayout roots[3], PetscSF *sf);

// v must have the level's layout: its owned points on every rank (else PETSC_ERR_ARG_SIZ on
// all ranks, naming what v is for).
PetscErrorCode LevelCheckVec(const Level &level, Vec v, const char *what);
// The full ghost exchange (Level::ghosts), made on the first call: collective on the level.
PetscErrorCode LevelGetGhosts(Level &level, PetscSF *sf);
// A global vector of the level (vtype: null for the standard type) whose VecView and VecLoad
// use the natural order, as a DMDA's, carrying dm where given, else the level (level_vec.cxx).
PetscErrorCode LevelCreateGlobalVec(const std::shared_ptr<Level> &level, VecType vtype, DM dm, Vec *v);
// The level attached to a DM, Mat or PC-visible object (nullptr if none).
PetscErrorCode LevelQuery(PetscObject obj, std::shared_ptr<Level> *level);
PetscErrorCode LevelCompose(PetscObject obj, const std::shared_ptr<Level> &level);

} // namespace vpatch
