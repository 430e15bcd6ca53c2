// Elementwise vector kernels on device arrays for the level operations and the float
// multigrid cycle (PETSc's VECCUDA covers double vectors; float arrays are ours).
#pragma once
#include <cstddef>

namespace vpatch {
namespace cuda {

// y = alpha x + beta y
template <typename Number>
void axpby(std::size_t n, Number alpha, const Number *x, Number beta, Number *y, void *stream);
// y = (To) x, or y += (To) x with add
template <typename From, typename To>
void convert(std::size_t n, const From *x, To *y, void *stream, bool add);
// y[i] += sum of v[offset[i]] .. v[offset[i + 1] - 1], i < n, in that order (the sums of
// gathered ghost copies into their owners)
template <typename Number>
void add_segment_sums(std::size_t n, const long long *offset, const Number *v, Number *y, void *stream);

} // namespace cuda
} // namespace vpatch
