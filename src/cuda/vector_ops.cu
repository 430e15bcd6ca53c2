#include "vector_ops_cuda.hpp"
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace vpatch {
namespace cuda {

namespace {
template <typename Number>
__global__ void axpby_kernel(std::size_t n, Number alpha, const Number *x, Number beta, Number *y)
{
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x)
    y[i] = alpha * x[i] + beta * y[i];
}
template <typename From, typename To, bool add>
__global__ void convert_kernel(std::size_t n, const From *x, To *y)
{
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x)
    y[i] = add ? static_cast<To>(std::common_type_t<From, To>(y[i]) + x[i]) : static_cast<To>(x[i]);
}
template <typename Number, bool add>
__global__ void indexed_copy_kernel(std::size_t n, const Number *src, const int *sidx, Number *dst, const int *didx)
{
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x) {
    const Number v = src[sidx ? (std::size_t)sidx[i] : i];
    Number &d = dst[didx ? (std::size_t)didx[i] : i];
    d = add ? d + v : v;
  }
}
unsigned grid_for(std::size_t n)
{
  const std::size_t b = (n + 255) / 256;
  return (unsigned)(b < 65535 * 16 ? (b ? b : 1) : 65535 * 16);
}
void check_launch(const char *what)
{
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
} // namespace

template <typename Number>
void axpby(std::size_t n, Number alpha, const Number *x, Number beta, Number *y, void *stream)
{
  if (!n) return;
  axpby_kernel<<<grid_for(n), 256, 0, (cudaStream_t)stream>>>(n, alpha, x, beta, y);
  check_launch("vpatch::cuda::axpby");
}
template <typename From, typename To>
void convert(std::size_t n, const From *x, To *y, void *stream, bool add)
{
  if (!n) return;
  if (add) convert_kernel<From, To, true><<<grid_for(n), 256, 0, (cudaStream_t)stream>>>(n, x, y);
  else convert_kernel<From, To, false><<<grid_for(n), 256, 0, (cudaStream_t)stream>>>(n, x, y);
  check_launch("vpatch::cuda::convert");
}

template <typename Number>
void indexed_copy(std::size_t n, const Number *src, const int *sidx, Number *dst, const int *didx, bool add, void *stream)
{
  if (!n) return;
  if (add) indexed_copy_kernel<Number, true><<<grid_for(n), 256, 0, (cudaStream_t)stream>>>(n, src, sidx, dst, didx);
  else indexed_copy_kernel<Number, false><<<grid_for(n), 256, 0, (cudaStream_t)stream>>>(n, src, sidx, dst, didx);
  check_launch("vpatch::cuda::indexed_copy");
}

template void indexed_copy<float>(std::size_t, const float *, const int *, float *, const int *, bool, void *);
template void indexed_copy<double>(std::size_t, const double *, const int *, double *, const int *, bool, void *);
template void axpby<float>(std::size_t, float, const float *, float, float *, void *);
template void axpby<double>(std::size_t, double, const double *, double, double *, void *);
template void convert<float, double>(std::size_t, const float *, double *, void *, bool);
template void convert<double, float>(std::size_t, const double *, float *, void *, bool);

} // namespace cuda
} // namespace vpatch
