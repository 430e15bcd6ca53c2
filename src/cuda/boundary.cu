// Owned boundary points of a level vector: dst = src (copy_boundary), dst = value
// (set_boundary), dst = minuend - src (residual_boundary: the identity rows of b - A x), or
// src's values on the faces of a BoundaryFaces array (pack_boundary_faces).
#include "../core/boundary_lift.hpp"
#include "common.cuh"

namespace vpatch {
namespace cuda {
namespace detail {

// The owned points on the faces of the domain: blockIdx.y = face (2d + side), threads
// grid-stride over the face's owned (u, v) points; points on edges are visited once per
// face they lie on (the same value). O(n^{d-1}) work: interior points are never touched.
enum class BoundaryOp { Copy, Set, Subtract, Pack };

constexpr int boundary_threads = 256;
// partial (a residual of double inputs only, else null): each block's sum of the squares of the
// values it writes (common.cuh, SquaresPart), a point on several faces counted on the first.
template <typename Number, BoundaryOp op, typename Out = Number>
__global__ void __launch_bounds__(boundary_threads)
  boundary_kernel(const Box box, const Number *src, const Number *minuend, Number value, Out *dst, double *partial)
{
  constexpr bool squares = op == BoundaryOp::Subtract && std::is_same_v<Number, double>;
  __shared__ double red[squares ? boundary_threads / 32 : 1];
  SquaresPart sq{partial};
  const int d = blockIdx.y / 2, c = (blockIdx.y % 2) ? box.n - 1 : 0;
  const bool owned = c >= box.os[d] && c < box.os[d] + box.om[d]; // this rank owns points of the face
  const int du = d == 0 ? 1 : 0, dv = d == 2 ? 1 : 2; // the other two directions
  const long nu = box.om[du], total = owned ? nu * box.om[dv] : 0;
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (long)gridDim.x * blockDim.x) {
    int p[3];
    p[d] = c;
    p[du] = box.os[du] + (int)(g % nu);
    p[dv] = box.os[dv] + (int)(g / nu);
    const long o = box.owned_index(p[0], p[1], p[2]);
    if constexpr (op == BoundaryOp::Copy) dst[o] = src[o];
    else if constexpr (op == BoundaryOp::Pack) dst[BoundaryFaces{box.dim, box.n}.index(d, c ? 1 : 0, p)] = src[o];
    else if constexpr (op == BoundaryOp::Set) dst[o] = value;
    else {
      const Out v = static_cast<Out>(minuend[o] - src[o]);
      dst[o] = v;
      if constexpr (squares) {
        bool first = true; // no face of a lower direction holds the point
        for (int e = 0; e < d; ++e) first = first && !box.on_boundary_1d(p[e]);
        if (partial) sq.add(v, first);
      }
    }
  }
  if constexpr (squares)
    if (partial) sq.finish(red);
}

// The launch's grid: blocks along a face (enough for the largest), one row per face.
inline dim3 boundary_grid(const Box &box)
{
  long face = 0; // largest face
  for (int d = 0; d < box.dim; ++d) face = std::max(face, box.owned_points() / box.om[d]);
  const long blocks = std::min<long>((face + boundary_threads - 1) / boundary_threads, 4096);
  return dim3((unsigned)blocks, 2 * box.dim);
}

template <typename Number, BoundaryOp op, typename Out = Number>
void launch_boundary(const Box &box, const Number *src, const Number *minuend, Number value, Out *dst, void *stream,
                     double *partial = nullptr)
{
  if (box.owned_points() <= 0) return;
  boundary_kernel<Number, op, Out><<<boundary_grid(box), boundary_threads, 0, to_stream(stream)>>>(box, src, minuend, value, dst, partial);
  check_launch("boundary kernel launch");
}

} // namespace detail

template <typename Number>
void copy_boundary(const Box &box, const Number *src, Number *dst, void *stream)
{
  detail::launch_boundary<Number, detail::BoundaryOp::Copy>(box, src, nullptr, Number(0), dst, stream);
}

template <typename Number, typename Out>
void residual_boundary(const Box &box, const Number *b, const Number *x, Out *r, void *stream)
{
  detail::launch_boundary<Number, detail::BoundaryOp::Subtract, Out>(box, x, b, Number(0), r, stream);
}

long residual_boundary_blocks(const Box &box)
{
  if (box.owned_points() <= 0) return 0;
  const dim3 g = detail::boundary_grid(box);
  return (long)g.x * g.y;
}

template <typename Out>
void residual_boundary(const Box &box, const double *b, const double *x, Out *r, double *partial, void *stream)
{
  detail::launch_boundary<double, detail::BoundaryOp::Subtract, Out>(box, x, b, 0.0, r, stream, partial);
}
template void residual_boundary<float>(const Box &, const double *, const double *, float *, double *, void *);
template void residual_boundary<double>(const Box &, const double *, const double *, double *, double *, void *);

template <typename Number>
void set_boundary(const Box &box, Number value, Number *dst, void *stream)
{
  detail::launch_boundary<Number, detail::BoundaryOp::Set>(box, nullptr, nullptr, value, dst, stream);
}

template <typename Number>
void pack_boundary_faces(const Box &box, const Number *v, Number *faces, void *stream)
{
  detail::launch_boundary<Number, detail::BoundaryOp::Pack>(box, v, nullptr, Number(0), faces, stream);
}

template void pack_boundary_faces<double>(const Box &, const double *, double *, void *);
template void copy_boundary<float>(const Box &, const float *, float *, void *);
template void copy_boundary<double>(const Box &, const double *, double *, void *);
template void residual_boundary<float>(const Box &, const float *, const float *, float *, void *);
template void residual_boundary<double>(const Box &, const double *, const double *, double *, void *);
template void residual_boundary<double, float>(const Box &, const double *, const double *, float *, void *);
template void set_boundary<float>(const Box &, float, float *, void *);
template void set_boundary<double>(const Box &, double, double *, void *);

} // namespace cuda
} // namespace vpatch
