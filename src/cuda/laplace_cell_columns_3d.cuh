// The 3D operator by cell columns (tuning.hpp, cell_columns_operator with dim 3): y = A_owned x,
// or y = b - A_owned x, with A = h (K^ x M^ x M^ + M^ x K^ x M^ + M^ x M^ x K^) summed over
// the owned cells (h = 1 / cells, the h = 1 cell matrices of reference_cell.cuh) and the
// boundary points' values taken as zero (the gather kernel's and the cell kernel's operator,
// laplace.cu).
//
// A thread owns a cell column: the k x k points (c_x k + a, c_y k + b), a, b < k, of cell
// (c_x, c_y) in every plane along z. A block of TX x TY threads covers TX x TY cell columns
// and marches along z through a chunk of cells, one plane at a time. Per plane a thread forms
// its cell's 2D sums over the (k + 1)^2 plane values, S1 = (K^ x M^ + M^ x K^) x and S2 =
// (M^ x M^) x, at the cell's (k + 1)^2 points (x sums, then y sums, both in even-odd form),
// keeps those of its own points and passes those of the points it shares with the cells to
// its right, above and diagonally (a = k or b = k) to them through shared memory. The cells
// left of and below the block are no thread's: a warp forms their shared faces alone (only
// the row a = k, or b = k, of the cell: one 1D row applied along one direction first, then
// three even-odd lines along the other). Along z the plane's sums enter the k + 1 outputs of
// the cell g it belongs to with column s of the cell matrices (M^ with S1, K^ with S2), as in
// the 2D kernel (laplace_cell_columns.cuh): every position is a compile-time constant, so
// the cell matrices are immediates, and only the nonzeros of a cell's rows are multiplied.
//
// Cells outside the owned range contribute nothing (their sums are zero; a per-cell test along
// z): every point of the local array is written. The block copies each plane's tile (the
// cells from c_x0 - 1, c_y0 - 1 on, with the last vertices) to a ring of cp.async stages,
// zero where a point lies outside the local array or on the domain boundary; rows leave
// through shared memory, a warp's output rows as consecutive points per store.
#pragma once
#include "../core/layout.hpp"
#include "common.cuh"
#include "cell_march.cuh"
#include "reference_cell.cuh"
#include "tuning.hpp"
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <cuda_pipeline.h>

namespace vpatch {
namespace cuda {
namespace detail {

template <int k, typename Number>
struct CellColumns3D : CellColumnRange<k> {
  static_assert(k >= reference::operator_degree_min && k <= reference::operator_degree_max, "CellColumns3D: compiled-in cell matrices");
  static constexpr int TX = cell_columns_tile_x_3d, TY = cell_columns_tile_y_3d, threads = TX * TY, warps = threads / 32;
  static constexpr int rows_per_warp = TY / warps; // cell rows (ty) a warp covers: lanes 0..15, 16..31
  static_assert(TX == 16 && rows_per_warp == 2, "CellColumns3D: a warp is two rows of 16 cells");
  static constexpr int chunk = cell_columns_chunk_3d(k, sizeof(Number) == 8); // cells along z per block
  static constexpr int stages = cell_columns_stages_3d(k, sizeof(Number) == 8); // ring of planes (cp.async)
  static constexpr int CS = k % 2 ? k : k + 1;                                 // ring slots per cell along x
  static constexpr int tile_x = (TX + 1) * k + 1, tile_y = (TY + 1) * k + 1;   // points from (c_x0 - 1) k, (c_y0 - 1) k
  // Ring row: at least (TX + 1) CS + 1 slots; in float, k rows apart on the other 16 banks
  // (the two cell rows of a warp read their windows k RX apart, lanes CS apart, CS odd).
  static constexpr int ring_row()
  {
    const int r0 = (TX + 1) * CS + 1;
    for (int r = r0; sizeof(Number) == 4 && r < r0 + 32; ++r)
      if (k * r % 32 == 16) return r;
    return r0;
  }
  static constexpr int RX = ring_row(), plane = RX * tile_y;
  static constexpr int xcopies = (tile_x + 31) / 32, ycopies = (tile_y + warps - 1) / warps; // per lane and plane
  static constexpr int slots = (TX + 1) * (TY + 1), faces = 2 * k + 1; // shared faces: a = k (k), b = k (k), corner
  static constexpr int stage_row = TX * k, stage_size = rows_per_warp * k * stage_row; // a warp's output rows
  // what a cell's sums read of a tile plane, as zeros for the cells not owned (residual: the form; Z: the window's size)
  static constexpr int zero_window(bool residual) { return cell_columns_zero_window(k, sizeof(Number) == 8, residual) ? k * RX + CS + 1 : 0; }
  static constexpr std::size_t smem(bool residual)
  {
    return sizeof(Number) * ((std::size_t)stages * plane + 2 * slots * faces + warps * stage_size + zero_window(residual));
  }
  static dim3 grid(const Box &box)
  {
    using R = CellColumnRange<k>;
    const int nx = R::cell_count(box.gs[0], box.gm[0]), ny = R::cell_count(box.gs[1], box.gm[1]), nz = R::cell_count(box.gs[2], box.gm[2]);
    return dim3((unsigned)((nx + TX - 1) / TX), (unsigned)((ny + TY - 1) / TY), (unsigned)((nz + chunk - 1) / chunk));
  }
};

template <int k, typename Number, bool residual, typename Out, bool squares = false>
__global__ void __launch_bounds__(CellColumns3D<k, Number>::threads, cell_columns_min_blocks_3d(k, sizeof(Number) == 8, residual))
  laplace_cell_columns_3d_kernel(const Box box, const Number *__restrict__ x, const Number *__restrict__ rhs, Out *__restrict__ y,
                                 const Number scale, double *partial)
{
  using P = CellColumns3D<k, Number>;
  constexpr int n1 = k + 1, D = P::stages, CS = P::CS, RX = P::RX, TX = P::TX, TY = P::TY, F = P::faces;
  Number *ring = shared_base<Number>();
  Number *X1 = ring + D * P::plane, *X2 = X1 + P::slots * F; // the shared faces of S1, S2 per cell slot
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  Number *stage = X2 + P::slots * F + warp * P::stage_size, *zeros = X2 + P::slots * F + P::warps * P::stage_size;
  constexpr bool ZW = P::zero_window(residual) > 0;
  static_assert(!squares || (residual && std::is_same_v<Number, double>), "laplace_cell_columns_3d_kernel: the sum of squares of a residual of double inputs (common.cuh)");
  SquaresPart sq{partial};
  for (int i = threadIdx.x; i < P::zero_window(residual); i += P::threads) zeros[i] = Number(0); // (read after the first plane's barrier)
  const Number *M = reference_cell<k, Number>.M, *K = reference_cell<k, Number>.K;
  const int gx = box.gs[0], mx = box.gm[0], gy = box.gs[1], my = box.gm[1], gz = box.gs[2], mz = box.gm[2];
  const int cx0 = P::first_cell(gx) + blockIdx.x * TX, cy0 = P::first_cell(gy) + blockIdx.y * TY;
  const int tx = threadIdx.x % TX, ty = threadIdx.x / TX, cx = cx0 + tx, cy = cy0 + ty;
  auto owned_xy = [&](int c0, int c1) { return c0 >= box.cs[0] && c0 < box.ce[0] && c1 >= box.cs[1] && c1 < box.ce[1]; };
  // This lane's copies along x: tile point q = lane + 32 e, global x (c_x0 - 1) k + q, local
  // index xo[e] (-1: zero), ring slot xs[e] (a cell's k points, then the next cell's).
  int xo[P::xcopies], xs[P::xcopies];
#pragma unroll
  for (int e = 0; e < P::xcopies; ++e) {
    const int q = lane + 32 * e, xg = (cx0 - 1) * k + q, a = xg - gx;
    xo[e] = q < P::tile_x && a >= 0 && a < mx && xg > 0 && xg < box.n - 1 ? a : -1;
    xs[e] = q + (CS - k) * (q / k);
  }
  const int cz0 = P::first_cell(gz) + blockIdx.z * P::chunk, cz1 = min(cz0 + P::chunk, P::first_cell(gz) + P::cell_count(gz, mz));
  const int p0 = (cz0 - 1) * k, np = (cz1 - cz0 + 1) * k + 1; // planes read: the cell below the chunk, its cells, the last vertex
  // Warp w copies the tile rows r = w + warps i: local row y0 + warps i (offset row_off + i
  // row_step within a plane; 32-bit, launch_laplace_cell_columns_3d checks a plane's size),
  // bit i of rows_in where it lies in the local array and off the domain boundary.
  const long plane_points = (long)mx * my;
  const int y0 = (cy0 - 1) * k + warp - gy, row_off = y0 * mx, row_step = P::warps * mx;
  unsigned rows_in = 0;
#pragma unroll
  for (int i = 0; i < P::ycopies; ++i) {
    const int yl = y0 + P::warps * i;
    if (yl >= 0 && yl < my && yl + gy > 0 && yl + gy < box.n - 1) rows_in |= 1u << i;
  }
  auto issue = [&](int t) { // plane p0 + t into stage t % D
    if (t < np) {
      const int p = p0 + t, zl = p - gz;
      const bool zin = zl >= 0 && zl < mz && p > 0 && p < box.n - 1;
      const Number *plane = x + (long)zl * plane_points; // (read only where zin: a zero fill reads nothing)
      Number *dst = ring + (t % D) * P::plane + warp * RX;
#pragma unroll
      for (int i = 0; i < P::ycopies; ++i) {
        if (P::tile_y % P::warps && i == P::ycopies - 1 && warp + P::warps * i >= P::tile_y) break;
        const bool in = zin && (rows_in >> i & 1u);
        const Number *row = plane + (row_off + i * row_step);
#pragma unroll
        for (int e = 0; e < P::xcopies; ++e) {
          if (e == P::xcopies - 1 && lane + 32 * e >= P::tile_x) break;
          copy_async_or_zero(dst + P::warps * i * RX + xs[e], row + xo[e], in && xo[e] >= 0 ? (unsigned)sizeof(Number) : 0u);
        }
      }
    }
    __pipeline_commit();
  };
#pragma unroll
  for (int t = 0; t < D - 1; ++t) issue(t);
  const bool own_xy = owned_xy(cx, cy);
  // ring slot of point a (0..k) of a cell along x, relative to the cell's first
  auto at = [](int a) { return a < k ? a : CS; };
  // Plane t's sums at this thread's points, s1 (with M^ along z) and s2 (with K^ along z).
  auto plane_sums = [&](int t, Number(&s1)[k * k], Number(&s2)[k * k]) { // [a k + b]
    __pipeline_wait_prior(D - 2); // this thread's copies of plane t have landed
    __syncthreads();              // everyone's; stage (t - 1) % D and the faces are no longer read
    issue(t + D - 1);
    const Number *tile = ring + (t % D) * P::plane;
    const int slot = (ty + 1) * (TX + 1) + tx + 1;
    {
      // [a][b]: the cell's sums at its point (a, b); zero for a cell not owned, whose inputs are
      // read from the zero window (tuning.hpp cell_columns_zero_window), or set
      Number S1[n1][n1], S2[n1][n1];
      if (!ZW && !own_xy) {
#pragma unroll
        for (int a = 0; a < n1; ++a)
#pragma unroll
          for (int b = 0; b < n1; ++b) S1[a][b] = S2[a][b] = Number(0);
      } else {
        const Number *w = ZW && !own_xy ? zeros : tile + (ty + 1) * k * RX + (tx + 1) * CS;
        Number pm[n1][n1], pk[n1][n1]; // [b][a]: x sums M^ x, K^ x of row b
#pragma unroll
        for (int b = 0; b < n1; ++b) {
          Number u[n1];
#pragma unroll
          for (int a = 0; a < n1; ++a) u[a] = w[b * RX + at(a)];
          const EvenOddLine<k, Number> line(u);
          EvenOddSum<k, Number> sm, sk;
          sm.add(evenodd_cell<k, Number>.M, line);
          sk.add(evenodd_cell<k, Number>.K, line);
#pragma unroll
          for (int a = 0; a < n1; ++a) {
            pm[b][a] = sm[a];
            pk[b][a] = sk[a];
          }
        }
#pragma unroll
        for (int a = 0; a < n1; ++a) {
          Number lm[n1], lk[n1];
#pragma unroll
          for (int b = 0; b < n1; ++b) {
            lm[b] = pm[b][a];
            lk[b] = pk[b][a];
          }
          const EvenOddLine<k, Number> Lm(lm), Lk(lk);
          EvenOddSum<k, Number> a1, a2;
          a1.add(evenodd_cell<k, Number>.M, Lk);
          a1.add(evenodd_cell<k, Number>.K, Lm);
          a2.add(evenodd_cell<k, Number>.M, Lm);
#pragma unroll
          for (int b = 0; b < n1; ++b) {
            S1[a][b] = a1[b];
            S2[a][b] = a2[b];
          }
        }
      }
      // the shared faces: a = k (to the cell at the right), b = k (above), the corner
#pragma unroll
      for (int j = 0; j < k; ++j) {
        X1[slot * F + j] = S1[k][j];
        X2[slot * F + j] = S2[k][j];
        X1[slot * F + k + j] = S1[j][k];
        X2[slot * F + k + j] = S2[j][k];
      }
      X1[slot * F + 2 * k] = S1[k][k];
      X2[slot * F + 2 * k] = S2[k][k];
#pragma unroll
      for (int a = 0; a < k; ++a)
#pragma unroll
        for (int b = 0; b < k; ++b) {
          s1[a * k + b] = S1[a][b];
          s2[a * k + b] = S2[a][b];
        }
    }
    // The faces of the cells left of (warp 1) and below (warp 0) the block: row k of the
    // cell along one direction (e = 1: x, the left cells' a = k; e = 0: y, the lower cells' b = k).
    auto halo = [&](int e, int c0, int c1, int slot_h, const Number *w) {
      Number m[n1] = {}, kk[n1] = {}; // the 1D row k of M^, K^ applied along direction e
      if (owned_xy(c0, c1)) {
#pragma unroll
        for (int i = 0; i < n1; ++i)   // along the other direction
#pragma unroll
          for (int j = 0; j < n1; ++j) { // along e
            const Number v = e ? w[i * RX + at(j)] : w[j * RX + at(i)];
            m[i] = fma(M[k * n1 + j], v, m[i]);
            kk[i] = fma(K[k * n1 + j], v, kk[i]);
          }
      }
      const EvenOddLine<k, Number> Lm(m), Lk(kk);
      EvenOddSum<k, Number> a1, a2;
      a1.add(evenodd_cell<k, Number>.K, Lm);
      a1.add(evenodd_cell<k, Number>.M, Lk);
      a2.add(evenodd_cell<k, Number>.M, Lm);
#pragma unroll
      for (int i = 0; i < k; ++i) {
        X1[slot_h * F + (e ? 0 : k) + i] = a1[i];
        X2[slot_h * F + (e ? 0 : k) + i] = a2[i];
      }
      X1[slot_h * F + 2 * k] = a1[k];
      X2[slot_h * F + 2 * k] = a2[k];
    };
    if (warp == 0 && lane <= TX) halo(0, cx0 - 1 + lane, cy0 - 1, lane, tile + lane * CS); // the cells below, the corner first
    if (warp == 1 && lane < TY) halo(1, cx0 - 1, cy0 + lane, (lane + 1) * (TX + 1), tile + (lane + 1) * k * RX);
    __syncthreads(); // the faces are written
    const int left = slot - 1, below = slot - (TX + 1), diag = below - 1;
#pragma unroll
    for (int j = 0; j < k; ++j) {
      s1[j] += X1[left * F + j]; // (0, j)
      s2[j] += X2[left * F + j];
      s1[j * k] += X1[below * F + k + j]; // (j, 0)
      s2[j * k] += X2[below * F + k + j];
    }
    s1[0] += X1[diag * F + 2 * k];
    s2[0] += X2[diag * F + 2 * k];
  };
  // acc[a k + b][q]: output (c_x k + a, c_y k + b, g k + q) of the cell g being walked (cell_march.cuh)
  Number acc[k * k][n1];
  // Planes g k .. g k + k - 1 of this thread's points, through the warp's part of `stage`:
  // its two rows of cells' 2 k rows of TX k points, 32 consecutive points per store. Staged
  // point i = lane + 32 j lies in row i / SR, column i % SR: with 32 j = q SR + o (compile
  // time), row q + c and column lane + o - c SR, c = (lane + o >= SR).
  constexpr int SR = P::stage_row;
  const int xa0 = cx0 * k - gx, ya0 = (cy0 + warp * P::rows_per_warp) * k - gy, out_off = ya0 * mx + xa0;
  auto store_planes = [&](int g) {
#pragma unroll
    for (int q = 0; q < k; ++q) {
      const int zl = g * k + q - gz;
      if (zl < 0 || zl >= mz) continue; // (uniform)
      constexpr int J = P::stage_size / 32;
      Out *yp = y + (long)zl * plane_points;
      auto place = [&](int j, int &at) { // offset of staged point lane + 32 j within the plane; whether it is a local point
        const int o = 32 * j % SR, wrap = lane + o >= SR ? 1 : 0;
        const int r = 32 * j / SR + wrap, c = lane + o - wrap * SR;
        at = out_off + r * mx + c;
        return (unsigned)(xa0 + c) < (unsigned)mx && (unsigned)(ya0 + r) < (unsigned)my;
      };
      // the residual's b of the plane, all J loads issued before the outputs are staged
      Number bv[residual ? J : 1];
      if constexpr (residual) {
        const Number *bp = rhs + (long)zl * plane_points;
#pragma unroll
        for (int j = 0; j < J; ++j) {
          int at;
          bv[j] = place(j, at) ? bp[at] : Number(0);
        }
      }
      __syncwarp(); // the previous plane is read
      const int r0 = (ty % P::rows_per_warp) * k;
#pragma unroll
      for (int b = 0; b < k; ++b)
#pragma unroll
        for (int a = 0; a < k; ++a) stage[(r0 + b) * SR + tx * k + a] = acc[a * k + b][q];
      __syncwarp();
#pragma unroll
      for (int j = 0; j < J; ++j) {
        int at;
        if (place(j, at)) {
          Number v = scale * stage[lane + 32 * j];
          if constexpr (residual) v = bv[j] - v;
          yp[at] = static_cast<Out>(v);
          if constexpr (squares) {
            const int o = 32 * j % SR, wrap = lane + o >= SR ? 1 : 0; // (place's row and column)
            sq.add(static_cast<Out>(v), !box.on_boundary(gx + xa0 + lane + o - wrap * SR, gy + ya0 + 32 * j / SR + wrap, g * k + q));
          }
        }
      }
    }
  };
  march_cells<k>(cz0, cz1, box.cs[2], box.ce[2], acc, plane_sums, store_planes);
  if constexpr (squares) sq.finish(ring); // (every copy has landed: the last planes issued none)
}

// y = A x or (residual) y = b - A x by 3D cell columns (sq: the residual's sum of squares too,
// double inputs only, launch_laplace).
template <int k, typename Number, bool residual, typename Out>
void launch_laplace_cell_columns_3d(const Box &box, const Number *b, const Number *x, Out *y, cudaStream_t stream, SquaresRequest *sq)
{
  using P = CellColumns3D<k, Number>;
  if (box.gm[0] <= 0 || box.gm[1] <= 0 || box.gm[2] <= 0) return;
  if ((long)box.gm[0] * (box.gm[1] + P::tile_y) > INT_MAX) // offsets within a plane, halo rows included, are 32-bit
    throw std::invalid_argument("vpatch cuda: laplace_apply (3D cell columns): a plane of more than 2^31 points");
  const dim3 grid = P::grid(box);
  auto launch = [&](auto kernel, int &configured, double *partial) {
    prepare_shared(kernel, P::smem(residual), "laplace_apply (3D cell columns)", configured);
    kernel<<<grid, P::threads, P::smem(residual), stream>>>(box, x, b, y, Number(1.0 / box.cells), partial);
    check_launch("laplace_apply (3D cell columns) kernel launch");
  };
  if constexpr (residual && std::is_same_v<Number, double>)
    if (sq) {
      static int configured = -1;
      launch(laplace_cell_columns_3d_kernel<k, Number, residual, Out, true>, configured, sq->take(grid));
      return;
    }
  if (sq) throw std::logic_error("vpatch cuda: a sum of squares of a residual of float inputs");
  static int configured = -1;
  launch(laplace_cell_columns_3d_kernel<k, Number, residual, Out>, configured, nullptr);
}

} // namespace detail
} // namespace cuda
} // namespace vpatch
