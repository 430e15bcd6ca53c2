// The owned points of a level between its owned (global vector) array and a ghosted local
// array of the same box (the in-place sweep of a distributed level copies x and b in and x
// out): one block per owned row (j, l), threads along x.
#include "common.cuh"

namespace vpatch {
namespace cuda {
namespace detail {

template <typename Number>
__global__ void copy_owned_kernel(const Box box, bool to_local, bool add, const Number *src, Number *dst)
{
  const long row = blockIdx.x;
  const int j = box.os[1] + (int)(row % box.om[1]), l = box.os[2] + (int)(row / box.om[1]);
  const long o = box.owned_index(box.os[0], j, l), g = box.local_index(box.os[0], j, l);
  const Number *s = src + (to_local ? o : g);
  Number *d = dst + (to_local ? g : o);
  for (int i = threadIdx.x; i < box.om[0]; i += blockDim.x) d[i] = add ? d[i] + s[i] : s[i];
}

} // namespace detail

template <typename Number>
void copy_owned(const Box &box, bool to_local, const Number *src, Number *dst, void *stream, bool add)
{
  const long rows = (long)box.om[1] * box.om[2];
  if (rows <= 0 || box.om[0] <= 0) return;
  const int threads = box.om[0] > 64 ? 128 : 64;
  detail::copy_owned_kernel<Number><<<(unsigned)rows, threads, 0, detail::to_stream(stream)>>>(box, to_local, add, src, dst);
  detail::check_launch("copy_owned kernel launch");
}

template void copy_owned<float>(const Box &, bool, const float *, float *, void *, bool);
template void copy_owned<double>(const Box &, bool, const double *, double *, void *, bool);

} // namespace cuda
} // namespace vpatch
