// The lift of Dirichlet values into the domain (core/boundary_lift.hpp) at every owned point:
// a grid-stride loop, one point per thread, the faces read through the cache (up to 2 d of
// them per point).
#include "common.cuh"
#include "kernels_cuda.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

template <typename Number>
__global__ void __launch_bounds__(256) boundary_lift_kernel(const Box box, const LiftGeometry geo, const Number *__restrict__ faces, Number *y)
{
  const BoundaryFaces F{box.dim, box.n};
  const long nx = box.om[0], nxy = nx * box.om[1], total = box.owned_points();
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (long)gridDim.x * blockDim.x) {
    const int p[3] = {box.os[0] + (int)(g % nx), box.os[1] + (int)(g % nxy / nx), box.os[2] + (int)(g / nxy)};
    y[g] = (Number)boundary_lift_value(F, geo, faces, p);
  }
}

} // namespace detail

template <typename Number>
void boundary_lift(const Box &box, const LiftGeometry &geo, const Number *faces, Number *y, void *stream)
{
  const long total = box.owned_points();
  if (total <= 0) return;
  const long blocks = std::min<long>((total + 255) / 256, 4096);
  detail::boundary_lift_kernel<Number><<<(unsigned)blocks, 256, 0, detail::to_stream(stream)>>>(box, geo, faces, y);
  detail::check_launch("boundary lift kernel launch");
}

template void boundary_lift<double>(const Box &, const LiftGeometry &, const double *, double *, void *);

} // namespace cuda
} // namespace vpatch
