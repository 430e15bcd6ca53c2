// Sparsity of the interior rows of the 1D vertex-patch matrices: two cells of degree k,
// closure points c = 0..2k (the shared vertex at c = k), interior rows r = 0..2k-2 (point
// r + 1). The Lagrange basis functions of different cells have disjoint supports, so row r
// couples to point c only where both lie in one cell: the points c < k of cell 0 to rows
// 0..k-1, the vertex to every row, the points c > k of cell 1 to rows k-1..2k-2. The other
// entries of the patch mass and stiffness rows are exact zeros (2k^2 + 2k - 1 of the
// (2k-1)(2k+1) entries are not), which the CUDA smoother's contractions skip.
#pragma once
#include "layout.hpp"

namespace vpatch {

// First and one-past-last interior row of the patch rows coupled to closure point c.
VPATCH_HD constexpr int band_rows_begin(int k, int c) { return c > k ? k - 1 : 0; }
VPATCH_HD constexpr int band_rows_end(int k, int c) { return c < k ? k : 2 * k - 1; }
// Entries of the (2k-1) x (2k+1) patch rows within the band (2k^2 + 2k - 1).
VPATCH_HD constexpr int band_entries(int k)
{
  int e = 0;
  for (int c = 0; c <= 2 * k; ++c) e += band_rows_end(k, c) - band_rows_begin(k, c);
  return e;
}
static_assert(band_entries(3) == 23 && band_entries(7) == 111, "band_entries: 2k^2 + 2k - 1");

} // namespace vpatch
