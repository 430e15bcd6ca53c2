// The lift of Dirichlet values into the domain (core/boundary_lift.hpp) at every owned point:
// one point per thread, the faces read through the cache.
#include "common.cuh"
#include "kernels_cuda.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

// blockIdx.y walks the rows (j, l) of the owned box, the threads of blockIdx.x its points along x
template <int Dim, typename Number>
__global__ void __launch_bounds__(256) boundary_lift_kernel(const Box box, const LiftGeometry geo, const Number *__restrict__ faces, Number *y)
{
  const BoundaryFaces F{Dim, box.n};
  const int i = blockIdx.x * blockDim.x + threadIdx.x, rows = box.om[1] * box.om[2];
  if (i >= box.om[0]) return;
  for (int r = blockIdx.y; r < rows; r += gridDim.y) {
    const int j = r % box.om[1], l = r / box.om[1];
    const int p[3] = {box.os[0] + i, box.os[1] + j, box.os[2] + l};
    y[(long)r * box.om[0] + i] = (Number)boundary_lift_value<Dim>(F, geo, faces, p);
  }
}

} // namespace detail

template <typename Number>
void boundary_lift(const Box &box, const LiftGeometry &geo, const Number *faces, Number *y, void *stream)
{
  if (box.owned_points() <= 0) return;
  const dim3 grid((unsigned)((box.om[0] + 255) / 256), (unsigned)std::min(box.om[1] * box.om[2], 65535));
  if (box.dim == 3) detail::boundary_lift_kernel<3, Number><<<grid, 256, 0, detail::to_stream(stream)>>>(box, geo, faces, y);
  else detail::boundary_lift_kernel<2, Number><<<grid, 256, 0, detail::to_stream(stream)>>>(box, geo, faces, y);
  detail::check_launch("boundary lift kernel launch");
}

template void boundary_lift<double>(const Box &, const LiftGeometry &, const double *, double *, void *);

} // namespace cuda
} // namespace vpatch
