// Owned boundary points of a level vector: dst = src (copy_boundary), dst = value
// (set_boundary) or dst = minuend - src (residual_boundary: the identity rows of b - A x).
#include "common.cuh"

namespace vpatch {
namespace cuda {
namespace detail {

// The owned points on the faces of the domain: blockIdx.y = face (2d + side), threads
// grid-stride over the face's owned (u, v) points; points on edges are visited once per
// face they lie on (the same value). O(n^{d-1}) work: interior points are never touched.
enum class BoundaryOp { Copy, Set, Subtract };

template <typename Number, BoundaryOp op, typename Out = Number>
__global__ void boundary_kernel(const Box box, const Number *src, const Number *minuend, Number value, Out *dst)
{
  const int d = blockIdx.y / 2, c = (blockIdx.y % 2) ? box.n - 1 : 0;
  if (c < box.os[d] || c >= box.os[d] + box.om[d]) return; // this rank owns no point of the face
  const int du = d == 0 ? 1 : 0, dv = d == 2 ? 1 : 2; // the other two directions
  const long nu = box.om[du], total = nu * box.om[dv];
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (long)gridDim.x * blockDim.x) {
    int p[3];
    p[d] = c;
    p[du] = box.os[du] + (int)(g % nu);
    p[dv] = box.os[dv] + (int)(g / nu);
    const long o = box.owned_index(p[0], p[1], p[2]);
    if constexpr (op == BoundaryOp::Copy) dst[o] = src[o];
    else if constexpr (op == BoundaryOp::Set) dst[o] = value;
    else dst[o] = static_cast<Out>(minuend[o] - src[o]);
  }
}

template <typename Number, BoundaryOp op, typename Out = Number>
void launch_boundary(const Box &box, const Number *src, const Number *minuend, Number value, Out *dst, void *stream)
{
  if (box.owned_points() <= 0) return;
  long face = 0; // largest face
  for (int d = 0; d < box.dim; ++d) face = std::max(face, box.owned_points() / box.om[d]);
  const int threads = 256;
  const long blocks = std::min<long>((face + threads - 1) / threads, 4096);
  const dim3 grid((unsigned)blocks, 2 * box.dim);
  boundary_kernel<Number, op, Out><<<grid, threads, 0, to_stream(stream)>>>(box, src, minuend, value, dst);
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

template <typename Number>
void set_boundary(const Box &box, Number value, Number *dst, void *stream)
{
  detail::launch_boundary<Number, detail::BoundaryOp::Set>(box, nullptr, nullptr, value, dst, stream);
}

template void copy_boundary<float>(const Box &, const float *, float *, void *);
template void copy_boundary<double>(const Box &, const double *, double *, void *);
template void residual_boundary<float>(const Box &, const float *, const float *, float *, void *);
template void residual_boundary<double>(const Box &, const double *, const double *, double *, void *);
template void residual_boundary<double, float>(const Box &, const double *, const double *, float *, void *);
template void set_boundary<float>(const Box &, float, float *, void *);
template void set_boundary<double>(const Box &, double, double *, void *);

} // namespace cuda
} // namespace vpatch
