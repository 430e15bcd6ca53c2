// Geometry of one rank's piece of a level: the global Q_k mesh and the rank's owned and
// ghosted ranges of support points, as plain integers (no PETSc types), so that CPU and
// CUDA kernels share it. Points are numbered lexicographically, x fastest; a direction
// beyond dim has extent 1.
#pragma once
#ifdef __CUDACC__
#define VPATCH_HD __host__ __device__
#else
#define VPATCH_HD
#endif

namespace vpatch {

struct Box {
  int dim;       // 2 or 3
  int degree;    // k
  int cells;     // cells per direction
  int n;         // support points per direction: cells * degree + 1
  int gs[3], gm[3]; // ghosted local array: first global point and extent per direction
  int os[3], om[3]; // owned points: first global point and extent per direction
  int cs[3], ce[3]; // owned cells [cs, ce) per direction

  // Index of global point (i, j, l) in the ghosted local array.
  VPATCH_HD long local_index(int i, int j, int l) const
  {
    return ((long)(l - gs[2]) * gm[1] + (j - gs[1])) * gm[0] + (i - gs[0]);
  }
  // Index of global point (i, j, l) in the owned (global vector) array.
  VPATCH_HD long owned_index(int i, int j, int l) const
  {
    return ((long)(l - os[2]) * om[1] + (j - os[1])) * om[0] + (i - os[0]);
  }
  VPATCH_HD bool on_boundary_1d(int i) const { return i == 0 || i == n - 1; }
  VPATCH_HD bool on_boundary(int i, int j, int l) const
  {
    return on_boundary_1d(i) || on_boundary_1d(j) || (dim == 3 && on_boundary_1d(l));
  }
  // The patches this rank runs: vertices [patch_begin, patch_end) per direction, interior
  // vertices only. Those of its own vertices (its cells' first ones); with halo_patches also
  // those of the next rank's first vertices, whose interiors reach this rank's points for
  // k >= 2 (the in-place sweep of a distributed level, src/petsc/sweep_halo.hpp, runs them on
  // both ranks; at k = 1 a patch's interior is its vertex alone).
  bool halo_patches;
  VPATCH_HD int patch_begin(int d) const { return d < dim ? (cs[d] > 1 ? cs[d] : 1) : 0; }
  VPATCH_HD int patch_end(int d) const { return d < dim ? (halo_patches && degree > 1 && ce[d] < cells ? ce[d] + 1 : ce[d]) : 1; }
  VPATCH_HD long owned_points() const { return (long)om[0] * om[1] * om[2]; }
  VPATCH_HD long local_points() const { return (long)gm[0] * gm[1] * gm[2]; }
  // Owned and ghosted arrays coincide (a single rank).
  VPATCH_HD bool local_is_owned() const
  {
    return gs[0] == os[0] && gs[1] == os[1] && gs[2] == os[2] && gm[0] == om[0] && gm[1] == om[1] && gm[2] == om[2];
  }
};

// Color of the patch around vertex (vx, vy, vz): sum_i (v_i mod 2) 2^i.
VPATCH_HD inline int patch_color(int dim, int vx, int vy, int vz)
{
  return (vx & 1) | ((vy & 1) << 1) | (dim == 3 ? ((vz & 1) << 2) : 0);
}

// Build a Box from the owned and ghosted ranges (cells derived from ownership).
inline Box make_box(int dim, int degree, int cells, const int os[3], const int om[3], const int gs[3], const int gm[3])
{
  Box b{};
  b.dim = dim;
  b.degree = degree;
  b.cells = cells;
  b.n = cells * degree + 1;
  for (int d = 0; d < 3; ++d) {
    b.os[d] = os[d]; b.om[d] = om[d]; b.gs[d] = gs[d]; b.gm[d] = gm[d];
    if (d < dim) {
      b.cs[d] = os[d] / degree;
      const int e = (os[d] + om[d]) / degree;
      b.ce[d] = e < cells ? e : cells;
    } else {
      b.cs[d] = 0; b.ce[d] = 1;
    }
  }
  return b;
}

} // namespace vpatch
