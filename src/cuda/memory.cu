// Device memory helpers with error checks.
#include "common.cuh"
#include <new>
#include <string>

namespace vpatch {
namespace cuda {

namespace {
// A failed device allocation: a std::bad_alloc (the PETSc glue reports PETSC_ERR_MEM) that says what failed.
class DeviceOutOfMemory : public std::bad_alloc {
public:
  explicit DeviceOutOfMemory(std::string msg) : msg_(std::move(msg)) {}
  const char *what() const noexcept override { return msg_.c_str(); }

private:
  std::string msg_;
};
} // namespace

void *device_malloc(std::size_t bytes)
{
  void *p = nullptr;
  if (bytes == 0) return nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); // not sticky: later launch checks must not see it
    throw DeviceOutOfMemory("vpatch cuda: cudaMalloc of " + std::to_string(bytes) + " bytes: " + cudaGetErrorString(e));
  }
  VPATCH_CUDA_CHECK(e);
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

void copy_to_device(void *dst, const void *src, std::size_t bytes, void *stream)
{
  if (bytes == 0) return;
  VPATCH_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, detail::to_stream(stream)));
  VPATCH_CUDA_CHECK(cudaStreamSynchronize(detail::to_stream(stream)));
}

void copy_to_host(void *dst, const void *src, std::size_t bytes, void *stream)
{
  if (bytes == 0) return;
  VPATCH_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, detail::to_stream(stream)));
  VPATCH_CUDA_CHECK(cudaStreamSynchronize(detail::to_stream(stream)));
}

void copy_on_device(void *dst, const void *src, std::size_t bytes, void *stream)
{
  if (bytes == 0) return;
  VPATCH_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, detail::to_stream(stream)));
}

void memset_zero(void *p, std::size_t bytes, void *stream)
{
  if (bytes == 0) return;
  VPATCH_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, detail::to_stream(stream)));
}

} // namespace cuda
} // namespace vpatch
