// Patch pairs: one thread of the float smoother kernel works on the same point of two
// patches, whose values lie next to each other in shared memory as one 8-byte element
// (tuning.hpp, patch_lanes). The stages then run the double kernel's shared-memory access
// pattern and instruction count per element (its layouts and launch shapes, 8-byte loads
// and stores, the same address arithmetic) for two patches at a time, where one float
// patch per thread issues a load or store instruction per 4-byte value. The arithmetic is
// the scalar one, lane by lane, so the results are those of one patch per thread bit for
// bit.
#pragma once
#include <cuda_runtime.h>

namespace vpatch {
namespace cuda {
// (a namespace of their own: an fma declared in detail would hide the global float and
// double overloads there; the pairs' fma is found by argument-dependent lookup)
namespace lanes {

template <typename T>
struct alignas(2 * sizeof(T)) Pair {
  T lo, hi;
  Pair() = default;
  __host__ __device__ constexpr Pair(T v) : lo(v), hi(v) {}
  __host__ __device__ constexpr Pair(T a, T b) : lo(a), hi(b) {}
  __device__ __forceinline__ Pair &operator+=(const Pair &o)
  {
    lo += o.lo;
    hi += o.hi;
    return *this;
  }
};
template <typename T>
__device__ __forceinline__ Pair<T> operator+(const Pair<T> &a, const Pair<T> &b) { return {a.lo + b.lo, a.hi + b.hi}; }
template <typename T>
__device__ __forceinline__ Pair<T> operator-(const Pair<T> &a, const Pair<T> &b) { return {a.lo - b.lo, a.hi - b.hi}; }
template <typename T>
__device__ __forceinline__ Pair<T> operator*(T a, const Pair<T> &b) { return {a * b.lo, a * b.hi}; }
template <typename T>
__device__ __forceinline__ Pair<T> operator*(const Pair<T> &a, T b) { return {a.lo * b, a.hi * b}; }
template <typename T>
__device__ __forceinline__ Pair<T> operator/(const Pair<T> &a, T b) { return {a.lo / b, a.hi / b}; }
template <typename T>
__device__ __forceinline__ Pair<T> fma(T a, const Pair<T> &b, const Pair<T> &c) { return {::fma(a, b.lo, c.lo), ::fma(a, b.hi, c.hi)}; }

// The value of lane c (0 or 1) of an element; a scalar element has lane 0 only.
template <typename T>
__device__ __forceinline__ T &lane(Pair<T> &e, int c) { return c ? e.hi : e.lo; }
template <typename T>
__device__ __forceinline__ const T &lane(const Pair<T> &e, int c) { return c ? e.hi : e.lo; }
template <typename T>
__device__ __forceinline__ T &lane(T &e, int) { return e; }
template <typename T>
__device__ __forceinline__ const T &lane(const T &e, int) { return e; }

// The element of W patches of scalar T: T itself, or a pair.
template <typename T, int W>
struct Lanes {
  static_assert(W == 1 || W == 2, "Lanes: one or two patches per thread");
  using type = T;
};
template <typename T>
struct Lanes<T, 2> {
  using type = Pair<T>;
};
template <typename T, int W>
using LanesOf = typename Lanes<T, W>::type;

} // namespace lanes
} // namespace cuda
} // namespace vpatch
