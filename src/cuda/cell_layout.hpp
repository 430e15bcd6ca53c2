// Shared-memory layout of the 3D cell operator's tensors (laplace_kernel in the form with
// compiled-in matrices and x, y contractions by lines: tuning.hpp reference_operator; host
// and device usable, no CUDA headers). A cell's record holds the gathered x ((k+1)^3), then
// the pair B0 | B1 (M_0 x | K_0 x, overwritten in place by M_1 c + K_1 a | M_1 a). Four
// stages access them: the gather and the z contraction walk z from a point (i, j) of the
// plane, the x lines take a (j, l) line each, the y lines an (i, l) line each. With compact
// strides (k+1, (k+1)^2) every lane of a line stage lies k+1 elements from the next, so for
// even k+1 several lanes share a bank (k = 7: 8-way conflicts on the stores of the x
// lines); Nsight Compute counted 65M of the 93M shared-memory wavefronts of the 3D float
// k = 7 MatMult as conflicts, with L1/TEX at 96%. The searched layouts give x and the pair
// their own padded strides, a padded cell stride, and per stage the choice of which free
// coordinate runs fastest over the threads (bench/bank_conflicts_operator.py scores and
// searches them, keeping the blocks per SM that the registers allow).
#pragma once
#include "tuning.hpp"

#ifndef VPATCH_CELL_LAYOUT
#define VPATCH_CELL_LAYOUT -1
#endif

namespace vpatch {
namespace cuda {

// Element (i, j, l) of x lies at i + j xy + l xz of its cell's record, of B0 at x_size + i +
// j by + l bz, of B1 b_size further; cells `cell` elements apart. swap_*: the stage's second
// free coordinate runs fastest over the threads (x lines: l before j; y lines: l before i;
// z contraction: j before i).
struct CellLayout {
  int xy, xz, by, bz, cell;
  bool swap_x, swap_y, swap_z;
};
// Elements spanned by a (k+1) x (k+1) x nz tensor with strides (1, sy, sz).
constexpr int cell_tensor_size(int k, int nz, int sy, int sz) { return (nz - 1) * sz + k * sy + k + 1; }

// Searched for the launch shapes of tuning.hpp (cells_per_block_laplace), per element size,
// where they paid. Float, modelled wavefronts per block, compact -> searched (ideal): k = 7
// 1376 -> 416 (320), k = 8 747 -> 666 (540). H200, MatMult 3D float, same-call A/B
// (bench/NOTES.md, "Bank conflicts of the operator by lines"): k = 7 107.9 -> 141.6 GDoF/s
// (Nsight Compute: 93.0M -> 38.0M shared-memory wavefronts, L1/TEX 96% -> 63%), k = 8
// 98.6 -> 101.9; k = 4, 5, 6 stay compact: their searched layouts (modelled 410 -> 340, 594
// -> 408, 644 -> 462) ran 0.1% faster and 2.2%, 2.4% slower (L2, with the atomics, at 80%).
// Double (8-byte elements, `bank_conflicts_operator.py --double`, the thirty-third session):
// k = 5 1026 -> 702 (600), k = 6 1218 -> 952 (700), k = 7 2240 -> 896 (640; 960 with the
// float layout), k = 8 1377 -> 1170 (1080; 1197 with the float layout); k = 4: compact is
// the best of the searched family (755, ideal 500).
struct SearchedCellLayout {
  int degree, cells, bytes; // bytes: of an element
  CellLayout layout;
};
inline constexpr SearchedCellLayout searched_cell_layouts[] = {
  {7, 2, 4, {8, 65, 9, 72, 1669, false, false, false}},
  {8, 2, 4, {9, 81, 9, 89, 2345, false, true, false}},
  {5, 4, 8, {6, 37, 9, 54, 868, false, false, false}},
  {6, 3, 8, {7, 49, 7, 55, 1105, true, false, false}},
  {7, 2, 8, {8, 65, 8, 65, 1557, true, false, false}},
  {8, 2, 8, {9, 81, 9, 89, 2321, true, false, false}},
};

// The layout of laplace_kernel<3, k> with `cells` cells per block and elements of `bytes`:
// searched where the kernel runs by lines and an entry exists (-DVPATCH_CELL_LAYOUT=0:
// never), else compact with the given cell stride.
constexpr CellLayout cell_layout(int k, int cells, int bytes, bool by_lines, int compact_cell)
{
  if (by_lines && tuned(VPATCH_CELL_LAYOUT, 1))
    for (const SearchedCellLayout &s : searched_cell_layouts)
      if (s.degree == k && s.cells == cells && s.bytes == bytes) return s.layout;
  return {k + 1, (k + 1) * (k + 1), k + 1, (k + 1) * (k + 1), compact_cell, false, false, false};
}

} // namespace cuda
} // namespace vpatch
