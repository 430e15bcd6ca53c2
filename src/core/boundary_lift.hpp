// A smooth extension of Dirichlet values into the domain, from the boundary values alone: the
// transfinite (Coons) interpolant of the boundary faces, the Boolean sum of the linear blends
// along each direction (2D: P_x + P_y - P_x P_y; 3D: every product of 1, 2, 3 of them, with
// alternating signs). It equals the given values at every boundary point and is as smooth as
// they are along the faces, so u - lift vanishes on the boundary and is smooth where u is:
// full multigrid, whose nested iteration approximates a solution that vanishes on the
// boundary, runs on that difference (PCVPatchMGApplyFull with nonzero Dirichlet values).
//
// The boundary values travel as whole faces: face (d, s) (normal to direction d, at the low
// s = 0 or high s = 1 end) holds n^(dim-1) values, indexed by the other coordinates in
// increasing direction order; edge and corner points sit on every face they belong to.
#pragma once
#include "layout.hpp"

namespace vpatch {

struct BoundaryFaces {
  int dim;
  int n; // points per direction
  VPATCH_HD long face_size() const { return dim == 3 ? (long)n * n : (long)n; }
  VPATCH_HD long size() const { return 2L * dim * face_size(); }
  // the entry of the point p (global indices) on face (d, s)
  VPATCH_HD long index(int d, int s, const int p[3]) const
  {
    const int a = d == 0 ? p[1] : p[0], b = d == 2 ? p[1] : p[2];
    return (2L * d + s) * face_size() + (dim == 3 ? (long)b * n + a : (long)a);
  }
};

// Support point coordinates along a direction: point i lies in cell i / k at the Gauss-Lobatto
// point i % k of [0, 1] (problem.hpp, support_coordinate; the last point is x = 1).
struct LiftGeometry {
  static constexpr int max_degree = 16;
  int cells, k;
  double support[max_degree + 1];
  VPATCH_HD double coordinate(int i) const
  {
    const int c = i / k, a = i - c * k;
    return (c + support[a]) / cells;
  }
};

// The lift at the point p (global indices) from the faces' values: a boundary point's own value
// (from the first face it lies on), the Boolean sum elsewhere. Dim = F.dim (compile-time, so
// that every loop unrolls and the small arrays stay in registers on the GPU).
template <int Dim, typename Number>
VPATCH_HD inline double boundary_lift_value(const BoundaryFaces &F, const LiftGeometry &geo, const Number *faces, const int p[3])
{
#pragma unroll
  for (int d = 0; d < Dim; ++d)
    if (p[d] == 0 || p[d] == F.n - 1) return (double)faces[F.index(d, p[d] ? 1 : 0, p)];
  double w[Dim][2];
#pragma unroll
  for (int d = 0; d < Dim; ++d) {
    const double x = geo.coordinate(p[d]);
    w[d][0] = 1.0 - x;
    w[d][1] = x;
  }
  double sum = 0;
#pragma unroll
  for (int S = 1; S < 1 << Dim; ++S) { // the directions blended: P_S = prod_{d in S} P_d
    const int first = S & 1 ? 0 : S & 2 ? 1 : 2, m = (S & 1) + (S >> 1 & 1) + (S >> 2 & 1);
    double term = 0;
#pragma unroll
    for (int s = 0; s < 1 << Dim; ++s) { // the ends of the blended directions (bit d: direction d)
      if (s & ~S) continue;
      int q[3] = {p[0], p[1], p[2]};
      double weight = 1;
#pragma unroll
      for (int d = 0; d < Dim; ++d)
        if (S >> d & 1) {
          q[d] = (s >> d & 1) * (F.n - 1);
          weight *= w[d][s >> d & 1];
        }
      term += weight * (double)faces[F.index(first, s >> first & 1, q)];
    }
    sum += m % 2 ? term : -term;
  }
  return sum;
}

namespace cpu {

// faces = the owned boundary points of v (owned array) on every face they lie on; faces'
// other entries are left as they are (zero them first: the ranks' faces are summed).
template <typename Number>
void pack_boundary_faces(const Box &box, const BoundaryFaces &F, const Number *v, Number *faces)
{
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j)
      for (int i = box.os[0]; i < box.os[0] + box.om[0]; ++i) {
        const int p[3] = {i, j, l};
        for (int d = 0; d < F.dim; ++d)
          for (int s = 0; s < 2; ++s)
            if (p[d] == s * (F.n - 1)) faces[F.index(d, s, p)] = v[box.owned_index(i, j, l)];
      }
}

// y = the lift at the owned points (owned array).
template <typename Number>
void boundary_lift(const Box &box, const BoundaryFaces &F, const LiftGeometry &geo, const Number *faces, Number *y)
{
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j)
      for (int i = box.os[0]; i < box.os[0] + box.om[0]; ++i) {
        const int p[3] = {i, j, l};
        y[box.owned_index(i, j, l)] = (Number)(F.dim == 3 ? boundary_lift_value<3>(F, geo, faces, p) : boundary_lift_value<2>(F, geo, faces, p));
      }
}

} // namespace cpu
} // namespace vpatch
