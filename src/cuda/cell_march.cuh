// The walk of the cell-column operators (laplace_cell_columns.cuh in 2D, _3d.cuh in 3D) along
// their marching direction, one cell and one plane at a time: a thread's NP points hold the
// k + 1 outputs of the cell g being walked (acc[p][q]: plane g k + q), into which plane s of the
// cell enters with its sums v1 (column s of M^) and v2 (column s of K^). A vertex plane (s = 0)
// closes cell g - 1 with column k, whose planes (g - 1) k .. g k - 1 are then complete and
// stored, and starts cell g, its first plane carrying cell g - 1's part. Cells outside the
// owned range [own_begin, own_end) add nothing.
#pragma once
#include "reference_cell.cuh"

namespace vpatch {
namespace cuda {
namespace detail {

// The cells whose points c k .. c k + k - 1 (a cell column's, along one direction) meet the
// local array [g, g + m): first_cell(g) .. first_cell(g) + cell_count(g, m) - 1.
template <int k>
struct CellColumnRange {
  __host__ __device__ static int first_cell(int g) { return g / k; }
  __host__ __device__ static int cell_count(int g, int m) { return (g + m - 1) / k - g / k + 1; }
};

// Cells c0 - 1 .. c1 - 1, planes (c0 - 1) k .. c1 k (plane t = (g - c0 + 1) k + s); the cell
// below the chunk only for the carry into plane c0 k. sums(t, v1, v2) forms plane t's sums at
// the thread's points, store(g) stores planes g k .. g k + k - 1 from acc (cells c0 .. c1 - 1).
template <int k, int NP, typename Number, typename Sums, typename Store>
__device__ __forceinline__ void march_cells(int c0, int c1, int own_begin, int own_end, Number (&acc)[NP][k + 1], Sums &&sums, Store &&store)
{
  constexpr int n1 = k + 1;
  const Number *M = reference_cell<k, Number>.M, *K = reference_cell<k, Number>.K;
#pragma unroll
  for (int p = 0; p < NP; ++p)
#pragma unroll
    for (int q = 0; q < n1; ++q) acc[p][q] = Number(0);
  for (int g = c0 - 1; g <= c1; ++g) {
    const bool own = g >= own_begin && g < own_end, own_below = g - 1 >= own_begin && g - 1 < own_end;
#pragma unroll
    for (int s = 0; s < k; ++s) {
      Number v1[NP], v2[NP];
      sums((g - c0 + 1) * k + s, v1, v2);
      if (s == 0) {
        if (g >= c0) { // the vertex plane g k closes cell g - 1 (column k of its matrices)
          if (own_below) {
#pragma unroll
            for (int p = 0; p < NP; ++p)
#pragma unroll
              for (int q = 0; q < n1; ++q) acc[p][q] = fma(M[q * n1 + k], v1[p], fma(K[q * n1 + k], v2[p], acc[p][q]));
          }
          if (g > c0) store(g - 1); // (cell c0 - 1: only its carry, plane c0 k)
        }
        if (g == c1) break;
#pragma unroll
        for (int p = 0; p < NP; ++p) { // cell g starts: plane g k carries cell g - 1's part
          const Number carry = acc[p][k];
#pragma unroll
          for (int q = 0; q < n1; ++q) acc[p][q] = own ? fma(M[q * n1], v1[p], K[q * n1] * v2[p]) : Number(0);
          acc[p][0] += carry;
        }
      } else if (own) {
#pragma unroll
        for (int p = 0; p < NP; ++p)
#pragma unroll
          for (int q = 0; q < n1; ++q) acc[p][q] = fma(M[q * n1 + s], v1[p], fma(K[q * n1 + s], v2[p], acc[p][q]));
      }
    }
  }
}

} // namespace detail
} // namespace cuda
} // namespace vpatch
