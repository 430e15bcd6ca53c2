// Device memory helpers with error checks.
#include "common.cuh"

namespace vpatch {
namespace cuda {

void *device_malloc(std::size_t bytes)
{
  void *p = nullptr;
  if (bytes == 0) return nullptr;
  VPATCH_CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}

void device_free(void *p)
{
  if (p) VPATCH_CUDA_CHECK(cudaFree(p));
}

void copy_to_device(void *dst, const void *src, std::size_t bytes)
{
  if (bytes == 0) return;
  VPATCH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

void memset_zero(void *p, std::size_t bytes, void *stream)
{
  if (bytes == 0) return;
  VPATCH_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, detail::to_stream(stream)));
}

} // namespace cuda
} // namespace vpatch
