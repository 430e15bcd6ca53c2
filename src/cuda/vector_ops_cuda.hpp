// Elementwise vector kernels on device arrays for the level operations and the float
// multigrid cycle (PETSc's VECCUDA covers double vectors; float arrays are ours).
#pragma once
#include <cstddef>

namespace vpatch {
namespace cuda {

// y = alpha x + beta y
template <typename Number>
void axpby(std::size_t n, Number alpha, const Number *x, Number beta, Number *y, void *stream);
// y = (To) x, or y = (To) (y + x) with add (in the wider type: one rounding)
template <typename From, typename To>
void convert(std::size_t n, const From *x, To *y, void *stream, bool add);
// dst[didx[i]] = src[sidx[i]] (or += with add) for i < n; a null index array is the
// identity (the ghost exchanges' packs and unpacks, peer_exchange.hpp)
template <typename Number>
void indexed_copy(std::size_t n, const Number *src, const int *sidx, Number *dst, const int *didx, bool add, void *stream);
// out[j] = sum_i x[i] y[j][i] for j < nv (host array out; returns when it is filled): one pass
// over x and each y per group of multi_max vectors, sums in a fixed order (the same result
// on every run)
constexpr int multi_max = 8;
template <typename Number>
void multi_dot(std::size_t n, const Number *x, int nv, const Number *const *y, Number *out, void *stream);
// whether any x_i != 0 (NaN counts; returns when it is known)
bool any_nonzero(std::size_t n, const double *x, void *stream);
// sum_i x_i^2 in double in a fixed order (returns when it is known)
template <typename Number>
double sum_squares(std::size_t n, const Number *x, void *stream);
// y = (float) (x - ax) (ax null: (float) x) and, with squares, sum_i y_i^2 (summed in double
// in a fixed order; returns when it is known; else 0): the two-pass float residual's
// difference b - A x or conversion of r, and its norm, in one pass
double difference_to_float(std::size_t n, const double *x, const double *ax, float *y, void *stream, bool squares);
// Sums formed by other kernels as one double per block: device space for count of them (the
// scratch below), then their sum in a fixed order (returns when it is known).
double *block_partials(std::size_t count, void *stream);
double sum_block_partials(std::size_t count, void *stream);
// frees the device scratch of multi_dot and the block partials (kept between calls; PETSc's finalization calls this)
void release_multi_scratch();
// y += sum_j alpha[j] x[j] for j < nv: one pass over y and each x per group of multi_max
template <typename Number>
void multi_axpy(std::size_t n, Number *y, int nv, const Number *alpha, const Number *const *x, void *stream);

} // namespace cuda
} // namespace vpatch
