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

} // namespace cuda
} // namespace vpatch
