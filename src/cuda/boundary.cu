// Owned boundary points of a level vector: dst = src (copy_boundary) or dst = value.
#include "common.cuh"

namespace vpatch {
namespace cuda {
namespace detail {

// One thread per owned point (grid-stride); interior points are skipped. These kernels are
// rare (boundary rows of A and of the smoother), so the simple loop is enough.
template <typename Number, bool copy>
__global__ void boundary_kernel(const Box box, const Number *src, Number value, Number *dst)
{
  const long total = box.owned_points();
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (long)gridDim.x * blockDim.x) {
    const int i = box.os[0] + (int)(g % box.om[0]), j = box.os[1] + (int)((g / box.om[0]) % box.om[1]),
              l = box.os[2] + (int)(g / ((long)box.om[0] * box.om[1]));
    if (box.on_boundary(i, j, l)) dst[g] = copy ? src[g] : value; // g == box.owned_index(i, j, l)
  }
}

template <typename Number, bool copy>
void launch_boundary(const Box &box, const Number *src, Number value, Number *dst, void *stream)
{
  const long total = box.owned_points();
  if (total <= 0) return;
  const int threads = 256;
  const long blocks = std::min<long>((total + threads - 1) / threads, 65536);
  boundary_kernel<Number, copy><<<(unsigned)blocks, threads, 0, to_stream(stream)>>>(box, src, value, dst);
  check_launch(copy ? "copy_boundary kernel launch" : "set_boundary kernel launch");
}

} // namespace detail

template <typename Number>
void copy_boundary(const Box &box, const Number *src, Number *dst, void *stream)
{
  detail::launch_boundary<Number, true>(box, src, Number(0), dst, stream);
}

template <typename Number>
void set_boundary(const Box &box, Number value, Number *dst, void *stream)
{
  detail::launch_boundary<Number, false>(box, nullptr, value, dst, stream);
}

template void copy_boundary<float>(const Box &, const float *, float *, void *);
template void copy_boundary<double>(const Box &, const double *, double *, void *);
template void set_boundary<float>(const Box &, float, float *, void *);
template void set_boundary<double>(const Box &, double, double *, void *);

} // namespace cuda
} // namespace vpatch
