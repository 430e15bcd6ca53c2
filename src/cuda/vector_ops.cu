#include "vector_ops_cuda.hpp"
#include "kernels_cuda.hpp"
#include "common.cuh"
#include <climits>
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

// Grid strides per step of multi_dot's loop (-DVPATCH_MULTI_DOT_UNROLL=U overrides).
#ifndef VPATCH_MULTI_DOT_UNROLL
  #define VPATCH_MULTI_DOT_UNROLL 4
#endif

namespace vpatch {
namespace cuda {

namespace {
using detail::block_sum;
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
// Pointers and coefficients of a group of at most multi_max vectors, passed by value.
template <typename Number>
struct Group {
  const Number *v[multi_max];
  Number a[multi_max];
};
constexpr int multi_threads = 256, multi_blocks = 1024;
unsigned multi_grid(std::size_t n)
{
  const std::size_t b = (n + 4 * multi_threads - 1) / (4 * multi_threads); // at least 4 entries per thread
  return (unsigned)(b < multi_blocks ? (b ? b : 1) : multi_blocks);
}
// partial[blockIdx.x][j] = this block's part of x . y[j], summed in Acc
template <int NV, typename Number, typename Acc = Number>
__global__ void __launch_bounds__(multi_threads) multi_dot_kernel(std::size_t n, const Number *__restrict__ x, Group<Number> y, Acc *__restrict__ partial)
{
  __shared__ Acc red[multi_threads / 32];
  Acc s[NV];
#pragma unroll
  for (int j = 0; j < NV; ++j) s[j] = 0;
  // U grid strides per step, their loads issued before the first product, so that a step's
  // loads overlap (H100: +13% on the GPU timer against one stride, bench/NOTES.md)
  constexpr int U = VPATCH_MULTI_DOT_UNROLL;
  const std::size_t stride = (std::size_t)gridDim.x * blockDim.x;
  std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x;
  for (; i + (U - 1) * stride < n; i += U * stride) {
    Number xv[U], yv[U][NV];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      xv[u] = x[i + u * stride];
#pragma unroll
      for (int j = 0; j < NV; ++j) yv[u][j] = y.v[j][i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int j = 0; j < NV; ++j) s[j] = fma((Acc)xv[u], (Acc)yv[u][j], s[j]);
  }
  for (; i < n; i += stride) {
    const Acc xi = x[i];
#pragma unroll
    for (int j = 0; j < NV; ++j) s[j] = fma(xi, (Acc)y.v[j][i], s[j]);
  }
#pragma unroll
  for (int j = 0; j < NV; ++j) {
    const Acc b = block_sum(s[j], red);
    if (threadIdx.x == 0) partial[blockIdx.x * NV + j] = b;
  }
}
// out[j] = sum over the blocks of partial[.][j], in one block
template <typename Number>
__global__ void __launch_bounds__(multi_threads) multi_dot_sum_kernel(int blocks, int nv, const Number *__restrict__ partial, Number *__restrict__ out)
{
  __shared__ Number red[multi_threads / 32];
  for (int j = 0; j < nv; ++j) {
    Number s = 0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x) s += partial[b * nv + j];
    s = block_sum(s, red);
    if (threadIdx.x == 0) out[j] = s;
  }
}
// y = (float) (x - ax) (Diff) or (float) x and, with Squares, partial[blockIdx.x] = this
// block's part of sum y^2 (in double)
template <bool Diff, bool Squares>
__global__ void __launch_bounds__(multi_threads) difference_to_float_kernel(std::size_t n, const double *__restrict__ x, const double *__restrict__ ax,
                                                                              float *__restrict__ y, double *__restrict__ partial)
{
  __shared__ double red[multi_threads / 32];
  double s = 0;
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x) {
    const float v = static_cast<float>(Diff ? x[i] - ax[i] : x[i]);
    y[i] = v;
    if constexpr (Squares) s = fma((double)v, (double)v, s);
  }
  if constexpr (Squares) {
    s = block_sum(s, red);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
  }
}
template <int NV, typename Number>
__global__ void __launch_bounds__(multi_threads) multi_axpy_kernel(std::size_t n, Number *__restrict__ y, Group<Number> x)
{
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x) {
    Number s = y[i];
#pragma unroll
    for (int j = 0; j < NV; ++j) s = fma(x.a[j], x.v[j][i], s);
    y[i] = s;
  }
}
// f(std::integral_constant<int, NV>) for NV = nv (1..multi_max)
template <typename F>
void with_group_size(int nv, F &&f)
{
  switch (nv) {
  case 1: f(std::integral_constant<int, 1>{}); break;
  case 2: f(std::integral_constant<int, 2>{}); break;
  case 3: f(std::integral_constant<int, 3>{}); break;
  case 4: f(std::integral_constant<int, 4>{}); break;
  case 5: f(std::integral_constant<int, 5>{}); break;
  case 6: f(std::integral_constant<int, 6>{}); break;
  case 7: f(std::integral_constant<int, 7>{}); break;
  default: f(std::integral_constant<int, multi_max>{}); break;
  }
}
void check_cuda(cudaError_t e, const char *what)
{
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check_launch(const char *what) { check_cuda(cudaGetLastError(), what); }

// multi_dot's device scratch, kept between calls (with a stream-ordered allocation per call the
// GPU timer saw VecMDot at 253 against 474 GFlop/s, bench/NOTES.md); one buffer for the current
// device, reallocated when it grows or the device changes.
struct MultiScratch {
  void *p = nullptr;
  std::size_t bytes = 0;
  int device = -1;
} scratch;
void *multi_scratch(std::size_t bytes, cudaStream_t s)
{
  int device;
  check_cuda(cudaGetDevice(&device), "vpatch::cuda::multi_dot (device)");
  if (scratch.p && scratch.bytes >= bytes && scratch.device == device) return scratch.p;
  check_cuda(cudaStreamSynchronize(s), "vpatch::cuda::multi_dot"); // (every call ends synchronized; a failed one may not have)
  release_multi_scratch();
  scratch.p = device_malloc(bytes); // (std::bad_alloc: PETSC_ERR_MEM at the PETSc boundary)
  scratch.bytes = bytes;
  scratch.device = device;
  return scratch.p;
}

unsigned grid_for(std::size_t n)
{
  const std::size_t b = (n + 255) / 256;
  return (unsigned)(b < 65535 * 16 ? (b ? b : 1) : 65535 * 16);
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

void release_multi_scratch()
{
  if (!scratch.p) return;
  int current = -1;
  (void)cudaGetDevice(&current);
  if (current != scratch.device) (void)cudaSetDevice(scratch.device);
  (void)cudaFree(scratch.p); // synchronizes the device
  if (current != scratch.device && current >= 0) (void)cudaSetDevice(current);
  scratch = MultiScratch{};
}

template <typename Number>
void multi_dot(std::size_t n, const Number *x, int nv, const Number *const *y, Number *out, void *stream)
{
  if (nv <= 0) return;
  if (!n) {
    for (int j = 0; j < nv; ++j) out[j] = 0;
    return;
  }
  const cudaStream_t s = (cudaStream_t)stream;
  const unsigned blocks = multi_grid(n);
  Number *work = static_cast<Number *>(multi_scratch(sizeof(Number) * ((std::size_t)blocks * multi_max + nv), s)); // partial sums of a group, then the nv results
  Number *res = work + (std::size_t)blocks * multi_max;
  for (int j0 = 0; j0 < nv; j0 += multi_max) {
    const int g = nv - j0 < multi_max ? nv - j0 : multi_max;
    Group<Number> grp{};
    for (int j = 0; j < g; ++j) grp.v[j] = y[j0 + j];
    with_group_size(g, [&](auto NV) { multi_dot_kernel<NV(), Number><<<blocks, multi_threads, 0, s>>>(n, x, grp, work); });
    multi_dot_sum_kernel<Number><<<1, multi_threads, 0, s>>>((int)blocks, g, work, res + j0);
    check_launch("vpatch::cuda::multi_dot");
  }
  check_cuda(cudaMemcpyAsync(out, res, sizeof(Number) * nv, cudaMemcpyDeviceToHost, s), "vpatch::cuda::multi_dot (result)");
  check_cuda(cudaStreamSynchronize(s), "vpatch::cuda::multi_dot");
}

template <typename Number>
double sum_squares(std::size_t n, const Number *x, void *stream)
{
  if (!n) return 0;
  const unsigned blocks = multi_grid(n);
  double *partial = block_partials(blocks, stream);
  Group<Number> grp{};
  grp.v[0] = x;
  multi_dot_kernel<1, Number, double><<<blocks, multi_threads, 0, (cudaStream_t)stream>>>(n, x, grp, partial);
  check_launch("vpatch::cuda::sum_squares");
  return sum_block_partials(blocks, stream);
}
template double sum_squares<float>(std::size_t, const float *, void *);
template double sum_squares<double>(std::size_t, const double *, void *);

// 1 in partial[block] where the block saw a nonzero entry (NaN included), else 0
__global__ void __launch_bounds__(multi_threads) block_nonzero_kernel(std::size_t n, const double *__restrict__ x, double *__restrict__ partial)
{
  int seen = 0;
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n; i += (std::size_t)gridDim.x * blockDim.x) seen |= x[i] != 0;
  seen = __syncthreads_or(seen);
  if (threadIdx.x == 0) partial[blockIdx.x] = seen;
}

bool any_nonzero(std::size_t n, const double *x, void *stream)
{
  if (!n) return false;
  const unsigned blocks = multi_grid(n);
  double *partial = block_partials(blocks, stream);
  block_nonzero_kernel<<<blocks, multi_threads, 0, (cudaStream_t)stream>>>(n, x, partial);
  check_launch("vpatch::cuda::any_nonzero");
  return sum_block_partials(blocks, stream) != 0;
}

double *block_partials(std::size_t count, void *stream)
{
  return static_cast<double *>(multi_scratch(sizeof(double) * (count + 1), (cudaStream_t)stream)); // (+1: the sum)
}

double sum_block_partials(std::size_t count, void *stream)
{
  if (!count) return 0;
  const cudaStream_t s = (cudaStream_t)stream;
  double *work = static_cast<double *>(scratch.p), *res = work + count, out;
  int device;
  check_cuda(cudaGetDevice(&device), "vpatch::cuda::sum_block_partials (device)");
  if (!work || scratch.bytes < sizeof(double) * (count + 1) || scratch.device != device || count > (std::size_t)INT_MAX)
    throw std::logic_error("vpatch::cuda::sum_block_partials: no block_partials space for them");
  multi_dot_sum_kernel<double><<<1, multi_threads, 0, s>>>((int)count, 1, work, res);
  check_launch("vpatch::cuda::sum_block_partials");
  check_cuda(cudaMemcpyAsync(&out, res, sizeof(double), cudaMemcpyDeviceToHost, s), "vpatch::cuda::sum_block_partials (result)");
  check_cuda(cudaStreamSynchronize(s), "vpatch::cuda::sum_block_partials");
  return out;
}

double difference_to_float(std::size_t n, const double *x, const double *ax, float *y, void *stream, bool squares)
{
  if (!n) return 0;
  const unsigned blocks = multi_grid(n);
  double *partial = squares ? block_partials(blocks, stream) : nullptr;
  auto launch = [&](auto diff, auto sq) {
    difference_to_float_kernel<decltype(diff)::value, decltype(sq)::value><<<blocks, multi_threads, 0, (cudaStream_t)stream>>>(n, x, ax, y, partial);
  };
  using T = std::true_type;
  using F = std::false_type;
  if (ax) squares ? launch(T{}, T{}) : launch(T{}, F{});
  else squares ? launch(F{}, T{}) : launch(F{}, F{});
  check_launch("vpatch::cuda::difference_to_float");
  return squares ? sum_block_partials(blocks, stream) : 0;
}

template <typename Number>
void multi_axpy(std::size_t n, Number *y, int nv, const Number *alpha, const Number *const *x, void *stream)
{
  if (!n || nv <= 0) return;
  for (int j0 = 0; j0 < nv; j0 += multi_max) {
    const int g = nv - j0 < multi_max ? nv - j0 : multi_max;
    Group<Number> grp{};
    for (int j = 0; j < g; ++j) {
      grp.v[j] = x[j0 + j];
      grp.a[j] = alpha[j0 + j];
    }
    with_group_size(g, [&](auto NV) { multi_axpy_kernel<NV(), Number><<<grid_for(n), multi_threads, 0, (cudaStream_t)stream>>>(n, y, grp); });
    check_launch("vpatch::cuda::multi_axpy");
  }
}

template void multi_dot<double>(std::size_t, const double *, int, const double *const *, double *, void *);
template void multi_dot<float>(std::size_t, const float *, int, const float *const *, float *, void *);
template void multi_axpy<double>(std::size_t, double *, int, const double *, const double *const *, void *);
template void multi_axpy<float>(std::size_t, float *, int, const float *, const float *const *, void *);
template void indexed_copy<float>(std::size_t, const float *, const int *, float *, const int *, bool, void *);
template void indexed_copy<double>(std::size_t, const double *, const int *, double *, const int *, bool, void *);
template void axpby<float>(std::size_t, float, const float *, float, float *, void *);
template void axpby<double>(std::size_t, double, const double *, double, double *, void *);
template void convert<float, double>(std::size_t, const float *, double *, void *, bool);
template void convert<double, float>(std::size_t, const double *, float *, void *, bool);

} // namespace cuda
} // namespace vpatch
