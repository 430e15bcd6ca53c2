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

} // namespace cuda
} // namespace vpatch
