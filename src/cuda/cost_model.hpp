// Operation counts of the CUDA kernels as they execute (host only, no CUDA headers): flops
// and shared-memory traffic per patch (smoother) or per cell (Laplacian, transfers), for
// the on-chip roofline R = B F / (d_r + d_w) of the paper's section 4.3. Each count mirrors
// the shared-memory loads and stores of one active thread in detail::contract() (common.cuh)
// summed over the active threads: see bench/NOTES.md for the formulas.
#pragma once
#include "../core/patch_band.hpp"
#include <cmath>
#include "kernels_cuda.hpp"
#include "tuning.hpp"

namespace vpatch {
namespace cuda {

struct KernelCost {
  double flops = 0;  // floating point operations (an FMA counts 2)
  double reads = 0;  // shared-memory elements read
  double writes = 0; // shared-memory elements written
  KernelCost &operator+=(const KernelCost &o)
  {
    flops += o.flops; reads += o.reads; writes += o.writes;
    return *this;
  }
};

// One contract<dir, E0, E1, E2, NR, NM, NI, ...> call with `fma` multiply-adds per
// (output point, k) and `nv` results per output point stored to shared memory; with
// `constant_mats` the matrix entries are operands from the constant bank, not shared loads;
// with patch pairs (lanes = 2, tuning.hpp patch_lanes) a matrix entry loaded from shared
// memory serves both patches: the counts are per patch.
// Dir 2, and dir 0, 1 with `lines` (contract_lines), run one thread per line along dir;
// these skip the entries outside the cell band with `band` (the patch rows: NE = 2k+1
// inputs, NR = 2k-1 rows, 2k^2 + 2k - 1 entries per line; core/patch_band.hpp).
// `evenodd` (the square eigenvector contractions, common.cuh contract_evenodd): 1 = S^T
// (inputs paired: 2h sums and differences, then h multiply-adds per output and one product
// per even output), 2 = S (outputs paired: m multiply-adds per pair of outputs and their sum
// and difference, h + 1 for the middle one); h = (m - 1) / 2, and h + 1 of the m eigenvectors
// are even.
inline KernelCost contract_cost(int dir, int E0, int E1, int E2, int NR, int NM, int NI, int fma, int nv, bool constant_mats = false,
                                bool lines = false, bool band = false, double lanes = 1, int evenodd = 0)
{
  const int NE = dir == 0 ? E0 : (dir == 1 ? E1 : E2);
  const double O0 = dir == 0 ? NR : E0, O1 = dir == 1 ? NR : E1, O2 = dir == 2 ? NR : E2;
  const double plane = O0 * O1, nlines = (double)E0 * E1 * E2 / NE;
  const bool by_lines = dir == 2 || lines;
  const double entries = by_lines && band ? band_entries(NE / 2) : (double)NR * NE; // (row, input) products per line
  KernelCost c;
  c.reads  = by_lines ? nlines * (NE * NI + (constant_mats ? 0 : entries * NM / lanes)) : plane * NE * (NM / lanes + O2 * NI);
  c.writes = plane * O2 * nv;
  const double h = (NE - 1) / 2;
  c.flops  = evenodd == 1 ? nlines * (2 * h + 2 * h * NE + (h + 1))
           : evenodd == 2 ? nlines * (2 * h * (NE + 1) + 2 * (h + 1))
                          : 2.0 * nlines * entries * fma;
  return c;
}

// One patch of patch_correct with the fast-diagonalization solver. Fused and Basic perform
// the same operations (Basic on padded layouts); Given skips the residual; Boundary
// contracts only the nonzero entries of the closure lines in its first step; z matrices
// as launch constants, and x, y contractions by lines, where tuning.hpp says so
// (launch_matrices, line_contractions).
inline KernelCost patch_cost(int dim, int k, SmootherKernel kernel, PatchResidual mode, bool is_double)
{
  const int n = 2 * k + 1, m = 2 * k - 1, nz = dim == 3 ? n : 1, mz = dim == 3 ? m : 1;
  // patch pairs take the launch shape of 8-byte elements (patch_smoother_impl.cuh, PatchPlan)
  const double W = kernel == SmootherKernel::Basic ? 1 : patch_lanes(dim, k, is_double);
  const bool wide = is_double || W == 2;
  const bool cm = kernel != SmootherKernel::Basic && launch_matrices(dim, k, wide), ln = cm && line_contractions(dim, k, wide);
  const double nint = (double)m * m * mz;
  KernelCost c;
  if (mode == PatchResidual::Local && kernel != SmootherKernel::Global) {
    c.writes += (double)n * n * nz; // closure x
    if (kernel == SmootherKernel::Boundary) {
      const double lines = (double)n * nz, face_lines = lines - (dim == 3 ? (double)(n - 2) * (n - 2) : (double)(n - 2));
      c.reads += m * (face_lines * (2.0 / W + 1) * n + (lines - face_lines) * (4.0 / W + 2));
      c.flops += m * (face_lines * 4.0 * n + (lines - face_lines) * 6.0);
      c.writes += 2.0 * m * n * nz;
    } else {
      c += contract_cost(0, n, n, nz, m, 2, 1, 2, 2, cm, ln, true, W);
    }
    if (dim == 2) {
      c += contract_cost(1, m, n, 1, m, 2, 2, 2, 1, false, false, false, W);
    } else {
      c += contract_cost(1, m, n, n, m, 2, 2, 3, 2, cm, ln, true, W);
      c += contract_cost(2, m, m, n, m, 2, 2, 2, 1, cm, false, true, W);
    }
    c.flops += nint; // rhs - A x
  } else {
    c.writes += nint; // r = rhs
  }
  const int stages = 2 * dim;
  const bool evenodd = ln && evenodd_solve(dim, k, is_double);
  for (int s = 0; s < stages; ++s) {
    const int dir = s % dim;
    c += contract_cost(dir, m, m, mz, m, 1, 1, 1, s == stages - 1 ? 0 : 1, cm, ln, false, W, evenodd ? (s < dim ? 1 : 2) : 0);
  }
  if (kernel != SmootherKernel::Basic && solve_in_registers(dim, k, wide)) {
    // S^T_z on the residual's (or the given residual's) column and the y line's S^T,
    // 1 / lambda, S in registers: the two stages' loads and stores leave shared memory
    c.reads -= 2 * nint;
    c.writes -= 2 * nint;
  }
  c.reads += dim * nint / W;   // eigenvalues
  c.flops += dim * nint;       // (dim-1) adds and one division
  c.flops += 2 * nint;         // out += scale * delta (1D tables, loaded once per block: neglected)
  if (k == 1 && kernel != SmootherKernel::Basic) c.reads = c.writes = 0; // one thread per patch, registers only
  return c;
}

// Flops of the even-odd form on a line of b values (reference_cell.cuh): a product with one
// matrix, (h + mid)^2 + h^2 multiply-adds (h = b / 2, mid = b % 2), and a split of the line
// into its sums and differences, or the recombination of a product's outputs, 2h adds.
struct EvenOddFlops {
  double product, split;
};
inline EvenOddFlops evenodd_flops(int b)
{
  const double h = b / 2, mid = b % 2;
  return {2 * ((h + mid) * (h + mid) + h * h), 2 * h};
}

// One cell of laplace_apply (residual = false) or laplace_residual (the gather kernel's rows
// per thread and planes per block depend on the precision and the form).
inline KernelCost laplace_cost(int dim, int k, bool is_double, bool residual)
{
  const int b = k + 1, bz = dim == 3 ? b : 1;
  KernelCost c;
  if (dim == 3 && cell_columns_operator(dim, k, is_double, residual)) {
    // laplace_cell_columns_3d.cuh, per plane and thread (k^2 points, a cell column along z):
    // x sums of the cell's k + 1 rows (a split, 2 products, 2 recombinations each) and y sums
    // of its k + 1 columns (2 splits, 3 products, 2 recombinations), the halo faces of a
    // block's TX + 1 + TY outer cells per TX TY threads (two 1D rows of b^2 terms, then as a
    // column), 2 (2k + 1) face sums added, and 2 multiply-adds into k + 1 outputs per point
    // (one vertex plane in k closes the cell below with as many again). Shared memory: the
    // cell's b^2 values read, the 2 (2k + 1) faces written and read, the block's tile
    // (TX k + k + 1)(TY k + k + 1) values written once per block, the outputs staged (k^2
    // written and read). A block reads (chunk + 1) k + 1 planes for its chunk of k chunk planes.
    const auto [product, split] = evenodd_flops(b);
    const double tx = cell_columns_tile_x_3d, ty = cell_columns_tile_y_3d, column = 4 * split + 3 * product;
    const double halo = (tx + 1 + ty) / (tx * ty) * (4.0 * b * b + column);
    const double per_plane = b * (3 * split + 2 * product) + b * column + halo + 4 * k + 2 + 4.0 * k * k * (k + 1) * (1 + 1.0 / k);
    const double chunk = cell_columns_chunk_3d(k, is_double), planes = ((chunk + 1) * k + 1) / (chunk * k);
    const double tile = (tx * k + k + 1) * (ty * k + k + 1) / (tx * ty);
    c.flops = planes * per_plane * k; // per_plane / k^2 per point, k^3 points
    c.reads = planes * (b * b + 2 * (2 * k + 1.0) + k * k) * k;
    c.writes = planes * (tile + 2 * (2 * k + 1.0) + k * k) * k;
    return c;
  }
  if (cell_columns_operator(dim, k, is_double, residual)) {
    // laplace_cell_columns.cuh, per plane and thread (k points, a cell column): the vertex's
    // x sums from 4 dot products of k + 1 terms and 2 ownership products, every other
    // point's from 2; in even-odd form (cell_columns_evenodd) rows 0..k of the own cell from
    // a split of its values and, per matrix, a product and a recombination, the left
    // cell's row k shuffled in (lane 0, one in 32, forms its 2 dot products); k + 1 outputs
    // take 2 multiply-adds per point, and a vertex plane (one in k) closes the cell below
    // with as many again; its window, 2k + 1 values (even-odd: k + 1, lane 0 k more), read,
    // and its warp's halo tile, 33 k + 1 values for 32 k points, written. A block reads
    // (chunk + 1) k + 1 planes for its chunk of k chunk rows.
    const double dot = 2 * (k + 1) - 1, chunk = cell_columns_chunk(k);
    const double planes = ((chunk + 1) * k + 1) / (chunk * k);
    const bool eo = cell_columns_evenodd(k, is_double, residual);
    const auto [product, split] = evenodd_flops(b);
    const double x_sums = eo ? 3 * split + 2 * product + 6 + 2 * dot / 32 : 4 * dot + 6 + (k - 1) * 2 * dot;
    const double per_plane = x_sums / k + 4 * (k + 1) * (1 + 1.0 / k); // flops per point
    c.flops = planes * per_plane * k * k;
    c.reads = planes * (eo ? k + 1 + k / 32.0 : 2 * k + 1.0) / k * k * k;
    c.writes = planes * (33 * k + 1.0) / (32 * k) * k * k;
    return c;
  }
  if (gather_operator(dim, k, is_double)) {
    // laplace_gather_kernel (laplace.cu), per output point: a thread (R points; 3D: R rows,
    // tile of 32 x (T / 32) R columns; 2D: R points T apart or adjacent, tile of T R; T threads) reduces each of the
    // chunk + 2k planes it reads to x sums (3D: of its R + 2k halo rows, 2D: of its R
    // points; two W-term dot products each, W = 2k+1, loading W values), 3D y sums per row
    // (pm: W terms, pa: 2W terms), and scatters them into W outputs (2W multiply-adds, 2W
    // coefficients loaded per plane); the plane tile with its halo is written to shared
    // memory once per block (2D warp rings: once per warp). With shared x sums (3D, gather_shared_x_sums) the block forms
    // each of the (T / 32) R + 2k halo rows' x sums once (xs rows per thread), writes them and each
    // thread reads its R + 2k rows' pairs back.
    const double w = 2 * k + 1, R = gather_rows(dim, k, is_double, residual), rr = dim == 3 ? R + 2 * k : R;
    const double T = gather_threads(dim, k, is_double, residual), X = dim == 3 ? 32 : T * R, Y = dim == 3 ? T / 32 * R : 1,
                 chunk = gather_chunk(dim, k, is_double, residual), planes = (chunk + 2 * k) / chunk;
    const bool shared_x = dim == 3 && gather_shared_x_sums(k, is_double);
    const double xs = shared_x ? (Y + 2 * k) / (T / 32) : rr; // x sums a thread forms per plane
    const double dot = 2 * w - 1;
    const double per_plane = xs * 2 * dot + (dim == 3 ? R * (2 * dot + 2 * w) : 0) + R * (4 * w - 1); // flops per thread
    // x values a thread loads per plane: W per x sum, or (2D adjacent points) one window of
    // W + R - 1 rounded up to its vectors of ve values
    const int ve = gather_window_vector((int)R, is_double ? 8 : 4);
    const double x_loads = gather_adjacent(dim, k, is_double) ? std::ceil((w + R - 1) / ve) * ve : xs * w;
    c.flops = planes * per_plane / R;
    // the 2W coefficients along m per plane, or (gather_packed_z) their 16-byte vectors
    const int vz = is_double ? 2 : 4;
    const double z_loads = gather_packed_z(dim, k, is_double, residual) ? std::ceil(2 * w / vz) * vz : 2 * w;
    c.reads = planes * (x_loads + z_loads + (shared_x ? 2 * rr : 0)) / R;
    // the halo tile is the block's, or (2D, gather_warp_rings) each warp's: 32 R + 2k values
    const double U = gather_warp_rings(dim, k, is_double, residual) ? 32 * R : X;
    c.writes = planes * ((U + 2 * k) * (dim == 3 ? Y + 2 * k : 1) / (U * Y) + (shared_x ? 2 * xs / R : 0));
    const double points = dim == 2 ? k * k : k * k * k; // per cell
    c.flops *= points;
    c.reads *= points;
    c.writes *= points;
    return c;
  }
  const bool ref = reference_operator(dim, k, is_double); // compiled-in matrices, x and y by lines
  c.writes += (double)b * b * bz;
  c += contract_cost(0, b, b, bz, b, 2, 1, 2, 2, ref, ref);
  if (dim == 2) c += contract_cost(1, b, b, 1, b, 2, 2, 2, 0);
  else {
    c += contract_cost(1, b, b, b, b, 2, 2, 3, 2, ref, ref);
    c += contract_cost(2, b, b, b, b, 2, 2, 2, 0, ref);
  }
  if (evenodd_operator(dim, k, is_double)) {
    // laplace.cu EvenOddX, Y, Z (3D, b^2 lines per stage): per line, 2h sums and
    // differences per input, (h + b % 2)^2 + h^2 multiply-adds per matrix product, 2h
    // sums and differences per output tensor; the loads and stores are the plain ones
    const EvenOddFlops f = evenodd_flops(b);
    auto line = [&](int inputs, int products, int outputs) { return f.split * inputs + f.product * products + f.split * outputs; };
    c.flops = (double)b * b * (line(1, 2, 2) + line(2, 3, 2) + line(2, 2, 1));
  }
  return c;
}

// One coarse cell of prolongate plus one of restrict_add (the compiled-in z matrix and the
// lines where tuning.hpp reference_transfers / transfer_lines say so).
inline KernelCost transfer_cost(int dim, int k, bool is_double)
{
  const int b = k + 1, p = 2 * k + 1;
  const bool ref = reference_transfers(dim, k, is_double), ln = transfer_lines(dim, k, is_double);
  KernelCost c;
  if (dim == 2) {
    c.writes += (double)b * b;
    c += contract_cost(0, b, b, 1, p, 1, 1, 1, 1);
    c += contract_cost(1, p, b, 1, p, 1, 1, 1, 0);
    c.writes += (double)p * p;
    c += contract_cost(0, p, p, 1, b, 1, 1, 1, 1);
    c += contract_cost(1, b, p, 1, b, 1, 1, 1, 0);
  } else {
    c.writes += (double)b * b * b;
    c += contract_cost(0, b, b, b, p, 1, 1, 1, 1, ln, ln);
    c += contract_cost(1, p, b, b, p, 1, 1, 1, 1, ln, ln);
    c += contract_cost(2, p, p, b, p, 1, 1, 1, 0, ref);
    c.writes += (double)p * p * p;
    c += contract_cost(0, p, p, p, b, 1, 1, 1, 1, ln, ln);
    c += contract_cost(1, b, p, p, b, 1, 1, 1, 1, ln, ln);
    c += contract_cost(2, b, b, p, b, 1, 1, 1, 0, ref);
  }
  if (k == 1) c.reads = c.writes = 0; // one thread per point, registers only (transfer.cu)
  return c;
}

} // namespace cuda
} // namespace vpatch
