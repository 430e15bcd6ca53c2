// Launch-shape table of the CUDA kernels (host and device usable, no CUDA headers):
// patches per thread block of the smoother kernels and cells per block of the cell
// kernels, per (dim, degree, precision). The one place to tune them.
#pragma once

namespace vpatch {
namespace cuda {

// Threads per patch: (2k+1)^2 (one per point of the patch plane; in 3D each thread walks a
// z column). Several patches per block for low degree (paper Fig. 7/8: more patches help
// for k = 1, 2, a little for k = 3, 4, one patch is best above), aiming at 128-256 threads
// per block. The Basic kernel (padded layouts, 3 (2k+1)^d values per patch) uses the same
// numbers.
constexpr int patches_per_block(int dim, int degree, bool is_double)
{
  return degree == 1 ? 16
       : degree == 2 ? 8
       : degree == 3 ? 4
       : degree == 4 ? 2
       : 1;
}

// Cells per block of laplace_apply (threads per cell (k+1)^2) and of the transfer kernels
// (threads per coarse cell (2k+1)^2): about 128 threads or more per block.
constexpr int cells_per_block_laplace(int dim, int degree)
{
  return (degree + 1) * (degree + 1) >= 128 ? 1 : (128 + (degree + 1) * (degree + 1) - 1) / ((degree + 1) * (degree + 1));
}
constexpr int cells_per_block_transfer(int dim, int degree)
{
  return (2 * degree + 1) * (2 * degree + 1) >= 96 ? 1 : 128 / ((2 * degree + 1) * (2 * degree + 1));
}

} // namespace cuda
} // namespace vpatch
