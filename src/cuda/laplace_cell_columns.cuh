// The 2D operator by cell columns (tuning.hpp, cell_columns_operator): y = A_owned x, or
// y = b - A_owned x, with A = K x M + M x K summed over the owned cells and the boundary
// points' values taken as zero (the gather kernel's operator, laplace.cu).
//
// A thread owns a cell column: the points c k .. c k + k - 1 along x (its vertex and the
// points inside cell c) of every row. A block of T threads covers T consecutive cell
// columns and marches along y through a chunk of cells, one plane (row of points) at a
// time. Per plane a thread forms the x sums pm = M x, pk = K x of its k points from the
// 2k + 1 values of its window (cells c - 1 and c with the vertex after them): the vertex
// from row k of cell c - 1 and row 0 of cell c, the other points from their rows of cell c
// alone (in even-odd form, tuning.hpp cell_columns_evenodd: rows 0..k of cell c from its
// k + 1 values, about half the multiply-adds, row k passed to the next lane, lane 0 forming
// the row of cell c - 1 itself). Along y the plane's sums enter the k + 1 outputs of the cell g it belongs to
// (acc[r][q], q = 0..k: rows g k + q) with column s of the cell matrices, s = the plane's
// index in the cell; a vertex plane also closes the cell below it, whose rows g k .. g k +
// k - 1 are then complete (the last one, shared with the cell above, carries over). Because
// every position in a cell is known at compile time, the h = 1 matrices are immediates and
// only the nonzeros of the rows are multiplied: 4 (k + 1)^2 / k multiply-adds per point
// against the gather's 4 (2k + 1) (k = 8: 40.5 against 68). In 2D the cell matrices h M^,
// K^ / h of a level give K^ x M^ + M^ x K^: the h = 1 ones exactly.
//
// Cells outside the owned range contribute nothing (a per-column test along x, a per-cell
// test along y): every point of the local array is written, as by the gather. Each warp
// copies the halo tile of its 32 columns (33 k + 1 points, one cell per `stride` ring slots,
// odd, so that the lanes' windows fall on distinct banks) to its part of a ring of
// cp.async stages, zero where a point lies outside the local array or on the domain
// boundary, and waits for its own copies only (__syncwarp).
#pragma once
#include "../core/layout.hpp"
#include "common.cuh"
#include "cell_march.cuh"
#include "reference_cell.cuh"
#include "tuning.hpp"
#include <cuda_pipeline.h>

namespace vpatch {
namespace cuda {
namespace detail {

template <int k, typename Number>
struct CellColumns : CellColumnRange<k> {
  static_assert(k >= reference::operator_degree_min && k <= reference::operator_degree_max, "CellColumns: compiled-in cell matrices");
  static constexpr int threads = cell_columns_threads(k), warps = threads / 32;
  static_assert(threads % 32 == 0, "CellColumns: whole warps");
  static constexpr int chunk = cell_columns_chunk(k); // cells along y per block
  static constexpr int stages = 4;
  static constexpr int stride = k % 2 ? k : k + 1;            // ring slots per cell
  static constexpr int tile_points = 33 * k + 1;              // a warp's halo tile: (c0 - 1) k .. (c0 + 32) k
  static constexpr int unit = 33 * stride + 1;                // its ring slots
  static constexpr int copies = (tile_points + 31) / 32;      // per lane and plane
  static dim3 grid(const Box &box)
  {
    using R = CellColumnRange<k>;
    const int nx = R::cell_count(box.gs[0], box.gm[0]), ny = R::cell_count(box.gs[1], box.gm[1]);
    return dim3((unsigned)((nx + threads - 1) / threads), (unsigned)((ny + chunk - 1) / chunk), 1);
  }
};

template <int k, typename Number, bool residual, typename Out>
__global__ void __launch_bounds__(CellColumns<k, Number>::threads, cell_columns_min_blocks(k, sizeof(Number) == 8, residual))
  laplace_cell_columns_kernel(const Box box, const Number *__restrict__ x, const Number *__restrict__ rhs, Out *__restrict__ y)
{
  using P = CellColumns<k, Number>;
  constexpr int n1 = k + 1, D = P::stages, CS = P::stride, UX = P::tile_points, E = P::copies;
  __shared__ __align__(16) Number ring[D][P::warps][P::unit];
  // a warp's output row (32 k values; one slot of padding per 32 so that neither the
  // lanes' k-strided writes nor the consecutive reads share banks)
  constexpr bool ST = cell_columns_staged_stores(k, sizeof(Number) == 8, residual);
  constexpr bool EO = cell_columns_evenodd(k, sizeof(Number) == 8, residual); // x sums in even-odd form
  __shared__ Number stage[ST ? P::warps : 1][ST ? 33 * k : 1];
  auto padded = [](int i) { return i + i / 32; };
  const Number *M = reference_cell<k, Number>.M, *K = reference_cell<k, Number>.K;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int gx = box.gs[0], mx = box.gm[0], gy = box.gs[1], my = box.gm[1];
  const int cw = P::first_cell(gx) + blockIdx.x * P::threads + warp * 32, cx = cw + lane; // the warp's first column, this thread's
  // This lane's copies: point q = lane + 32 e of the warp's tile, global x (cw - 1) k + q, from
  // local index src[e] (-1: zero, outside the local array or on the boundary).
  int src[E];
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int q = lane + 32 * e, xg = (cw - 1) * k + q, a = xg - gx;
    src[e] = q < UX && a >= 0 && a < mx && xg > 0 && xg < box.n - 1 ? a : -1;
  }
  const int cy0 = P::first_cell(gy) + blockIdx.y * P::chunk, cy1 = min(cy0 + P::chunk, P::first_cell(gy) + P::cell_count(gy, my));
  const int p0 = (cy0 - 1) * k, np = (cy1 - cy0 + 1) * k + 1; // planes read: the cell below the chunk, its cells, the last vertex
  auto issue = [&](int t) {                                    // plane p0 + t into stage t % D
    if (t < np) {
      const int p = p0 + t, b = p - gy;
      const bool in = b >= 0 && b < my && p > 0 && p < box.n - 1;
      Number *dst = ring[t % D][warp];
      const Number *row = x + (in ? (long)b * mx : 0);
#pragma unroll
      for (int e = 0; e < E; ++e) {
        const int q = lane + 32 * e;
        if (e == E - 1 && q >= UX) break;
        copy_async_or_zero(dst + q / k * CS + q % k, row + (src[e] < 0 ? 0 : src[e]), in && src[e] >= 0 ? (unsigned)sizeof(Number) : 0u);
      }
    }
    __pipeline_commit();
  };
#pragma unroll
  for (int t = 0; t < D - 1; ++t) issue(t);
  // Ownership along x of cell cx - 1 (the vertex's left part) and cx (every point's right part).
  const Number fl = cx - 1 >= box.cs[0] && cx - 1 < box.ce[0] ? Number(1) : Number(0);
  const bool own_x = cx >= box.cs[0] && cx < box.ce[0];
  const Number fc = own_x ? Number(1) : Number(0);
  // x sums of plane t: pm[r] = (M x)(c k + r), pk[r] = (K x)(c k + r) over the owned cells.
  auto plane_sums = [&](int t, Number(&pm)[k], Number(&pk)[k]) {
    __pipeline_wait_prior(D - 2); // this lane's copies of plane t have landed
    __syncwarp();                 // the warp's; and stage (t - 1) % D is no longer read
    issue(t + D - 1);
    const Number *w = ring[t % D][warp] + lane * CS; // cell cx - 1 at w[0..k], cell cx at w[CS..CS + k]
    // row k of cell cx - 1 (the vertex's left part), row r of cell cx
    auto left_row = [&](const Number *A) {
      Number s = A[k * n1] * w[0];
#pragma unroll
      for (int j = 1; j < k; ++j) s = fma(A[k * n1 + j], w[j], s);
      return fma(A[k * n1 + k], w[CS], s);
    };
    Number u[n1]; // cell cx
#pragma unroll
    for (int j = 0; j < k; ++j) u[j] = w[CS + j];
    u[k] = w[2 * CS];
    if constexpr (EO) {
      const EvenOddLine<k, Number> line(u);
      EvenOddSum<k, Number> sm, sk;
      sm.add(evenodd_cell<k, Number>.M, line);
      sk.add(evenodd_cell<k, Number>.K, line);
      Number lm = __shfl_up_sync(0xffffffffu, sm[k], 1), lk = __shfl_up_sync(0xffffffffu, sk[k], 1);
      if (lane == 0) { // cell cw - 1 is no lane's
        lm = left_row(M);
        lk = left_row(K);
      }
      pm[0] = fma(fl, lm, fc * sm[0]);
      pk[0] = fma(fl, lk, fc * sk[0]);
#pragma unroll
      for (int r = 1; r < k; ++r) {
        pm[r] = sm[r]; // cell cx unowned: zeroed at the store
        pk[r] = sk[r];
      }
    } else {
      Number rm = M[0] * u[0], rk = K[0] * u[0];
#pragma unroll
      for (int j = 1; j <= k; ++j) {
        rm = fma(M[j], u[j], rm);
        rk = fma(K[j], u[j], rk);
      }
      pm[0] = fma(fl, left_row(M), fc * rm);
      pk[0] = fma(fl, left_row(K), fc * rk);
#pragma unroll
      for (int r = 1; r < k; ++r) {
        Number sm = M[r * n1] * u[0], sk = K[r * n1] * u[0];
#pragma unroll
        for (int j = 1; j <= k; ++j) {
          sm = fma(M[r * n1 + j], u[j], sm);
          sk = fma(K[r * n1 + j], u[j], sk);
        }
        pm[r] = sm; // cell cx unowned: zeroed at the store
        pk[r] = sk;
      }
    }
  };
  // acc[r][q]: output (c k + r, g k + q) of the cell g being walked (cell_march.cuh)
  Number acc[k][n1];
  // Rows g k .. g k + k - 1 of this thread's points, zero inside an unowned column. Staged
  // (tuning.hpp, cell_columns_staged_stores): row by row through the warp's part of `stage`,
  // so that each store (and load of b) covers 32 consecutive points; else straight from
  // the registers, k points apart along x.
  auto store_rows = [&](int g) {
#pragma unroll
    for (int q = 0; q < k; ++q) {
      const int b = g * k + q - gy;
      if (b < 0 || b >= my) continue; // (uniform)
      if constexpr (ST) {
        __syncwarp(); // the previous row is read
#pragma unroll
        for (int r = 0; r < k; ++r) stage[warp][padded(lane * k + r)] = r == 0 || own_x ? acc[r][q] : Number(0);
        __syncwarp();
#pragma unroll
        for (int j = 0; j < k; ++j) {
          const int i = lane + 32 * j, a = cw * k + i - gx;
          if (a >= 0 && a < mx) {
            const long o = (long)b * mx + a;
            Number v = stage[warp][padded(i)];
            if constexpr (residual) v = rhs[o] - v;
            y[o] = static_cast<Out>(v);
          }
        }
      } else {
#pragma unroll
        for (int r = 0; r < k; ++r) {
          const int a = cx * k + r - gx;
          if (a >= 0 && a < mx) {
            const long o = (long)b * mx + a;
            Number v = r == 0 || own_x ? acc[r][q] : Number(0);
            if constexpr (residual) v = rhs[o] - v;
            y[o] = static_cast<Out>(v);
          }
        }
      }
    }
  };
  march_cells<k>(cy0, cy1, box.cs[1], box.ce[1], acc, [&](int t, Number(&v1)[k], Number(&v2)[k]) { plane_sums(t, v2, v1); }, store_rows);
}

// y = A x or (residual) y = b - A x by cell columns.
template <int k, typename Number, bool residual, typename Out>
void launch_laplace_cell_columns(const Box &box, const Number *b, const Number *x, Out *y, cudaStream_t stream)
{
  using P = CellColumns<k, Number>;
  if (box.gm[0] <= 0 || box.gm[1] <= 0) return;
  laplace_cell_columns_kernel<k, Number, residual, Out><<<P::grid(box), P::threads, 0, stream>>>(box, x, b, y);
  check_launch("laplace_apply (cell columns) kernel launch");
}

} // namespace detail
} // namespace cuda
} // namespace vpatch
