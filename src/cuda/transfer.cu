// Grid transfers between a coarse level and the fine level of the same degree k (every
// coarse cell split into 2^d fine cells): xf_owned += P xc_local (or = P xc_local: every
// owned fine point off the boundary written once, none read) and xc_local += P^T xf_owned,
// one coarse cell per thread group, sum factorization in shared memory (3D, where tuning.hpp's
// tiled_transfers says so for the direction: tiles of cells, transfer_tiles.cuh; 2D k = 1: one thread per column
// of points, below). See cpu::prolongate,
// cpu::restrict_add (transfer_rows rule: each fine point is written by exactly one cell).
#include "../core/dispatch.hpp"
#include "common.cuh"
#include "march.cuh"
#include "transfer_tiles.cuh"

namespace vpatch {
namespace cuda {
namespace detail {

template <int dim, int k, typename Number>
struct TransferPlan {
  static constexpr int nb = k + 1, np = 2 * k + 1, T = np * np, C = cells_per_block_transfer(dim, k);
  static constexpr int bz = dim == 3 ? nb : 1, pz = dim == 3 ? np : 1;
  // prolongate: X (nb^d), T1 (np nb^{d-1}), T2 (np^2 nb, 3D)
  static constexpr int p_per_cell = nb * nb * bz + np * nb * bz + (dim == 3 ? np * np * nb : 0);
  // restrict: Y (np^d), T1 (nb np^{d-1}), T2 (nb^2 np, 3D)
  static constexpr int r_per_cell = np * np * pz + nb * np * pz + (dim == 3 ? nb * nb * np : 0);
  static constexpr int mats = np * nb;
  static constexpr bool async = async_gathers(dim, k); // cp.async input gathers
  static constexpr std::size_t p_smem = sizeof(Number) * (std::size_t)(mats + C * p_per_cell);
  static constexpr std::size_t r_smem = sizeof(Number) * (std::size_t)(mats + C * r_per_cell);
  // the z contractions' matrix compiled in (tuning.hpp, reference_transfers), and the x
  // and y contractions by lines with it (transfer_lines)
  static constexpr bool reference = reference_transfers(dim, k, sizeof(Number) == 8);
  static constexpr bool lines = reference && transfer_lines(dim, k, sizeof(Number) == 8);
  // the prolongation's read-modify-write of xf by whole z columns (tuning.hpp)
  static constexpr bool column = transfer_column_store(dim, k, sizeof(Number) == 8);
};

__device__ __forceinline__ int rows_of(int k, int cell, int cells) { return cell == cells - 1 ? 2 * k + 1 : 2 * k; }

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(TransferPlan<dim, k, Number>::T *TransferPlan<dim, k, Number>::C)
  prolongate_kernel(const Box coarse, const Box fine, const Number *__restrict__ Pm, const CellRange cc,
                    const Number *__restrict__ xc, Number *xf, const bool add)
{
  using Plan = TransferPlan<dim, k, Number>;
  constexpr int nb = Plan::nb, np = Plan::np, T = Plan::T, bz = Plan::bz;
  Number *sm = shared_base<Number>();
  Number *Ps = sm;
  const int tid = threadIdx.x, cib = tid / T, t = tid % T;
  Number *X = sm + Plan::mats + cib * Plan::p_per_cell, *T1 = X + nb * nb * bz, *T2 = T1 + np * nb * bz;
  for (int i = tid; i < np * nb; i += blockDim.x) Ps[i] = Pm[i];
  const long cid = (long)blockIdx.x * Plan::C + cib;
  const bool valid = cid < cc.ncells;
  int cell[3] = {0, 0, 0};
  if (valid) cc.cell<dim>(cid, coarse, cell);
  const int cx = cell[0], cy = cell[1], cz = cell[2];
  {
    const int i0 = cx * k, j0 = cy * k, l0 = dim == 3 ? cz * k : 0;
    gather_box<Plan::async, nb, nb, bz, T>(t, X, xc, valid ? coarse.local_index(i0, j0, l0) : 0, coarse.gm[0], (long)coarse.gm[0] * coarse.gm[1],
                                           [&](int xa, int yb) {
                                             return [&, xa, yb](int zc) { return valid && !coarse.on_boundary(i0 + xa, j0 + yb, l0 + zc); };
                                           });
  }
  __syncthreads();
  // The matrix of each contraction: compiled in (z; x and y by lines) or in shared memory.
  const Number *Pz = Ps, *Pxy = Ps;
  if constexpr (Plan::reference) Pz = reference_transfer<k, Number>.P;
  if constexpr (Plan::lines) Pxy = Pz;
  constexpr bool Ln = Plan::lines;
  auto one = [](Number *acc, const Number *mv, const Number *iv) { acc[0] += mv[0] * iv[0]; };
  contract<0, nb, nb, bz, np, 1, 1, 1, false, np, T, false, 1, 0, false, Ln>(
    t, {Pxy}, {X}, one, [&](const Number *acc, int, int, int, int o, int) { T1[o] = acc[0]; });
  __syncthreads();
  const int rx = rows_of(k, cx, coarse.cells), ry = rows_of(k, cy, coarse.cells), rz = dim == 3 ? rows_of(k, cz, coarse.cells) : 1;
  auto store = [&](const Number *acc, int a, int b, int c, int, int) {
    if (!valid || a >= rx || b >= ry || c >= rz) return;
    const int i = 2 * cx * k + a, j = 2 * cy * k + b, l = dim == 3 ? 2 * cz * k + c : 0;
    if (fine.on_boundary(i, j, l)) return;
    Number &o = xf[fine.owned_index(i, j, l)];
    o = add ? o + acc[0] : acc[0];
  };
  if constexpr (dim == 2) {
    contract<1, np, nb, 1, np, 1, 1, 1, false, np, T, false>(t, {Ps}, {T1}, one, store);
  } else {
    contract<1, np, nb, nb, np, 1, 1, 1, false, np, T, false, 1, 0, false, Ln>(
      t, {Pxy}, {T1}, one, [&](const Number *acc, int, int, int, int o, int) { T2[o] = acc[0]; });
    __syncthreads();
    if constexpr (Plan::column) {
      // the thread's fine column at once (tuning.hpp, transfer_column_store): every load of
      // xf before the first store
      const ColumnStore column{[&](const auto &acc, int a, int b, int) {
        if (!valid || a >= rx || b >= ry) return;
        const int i = 2 * cx * k + a, j = 2 * cy * k + b, l0 = 2 * cz * k;
        if (fine.on_boundary_1d(i) || fine.on_boundary_1d(j)) return;
        const long sz = (long)fine.om[0] * fine.om[1];
        Number *o = xf + fine.owned_index(i, j, l0), old[np];
#pragma unroll
        for (int c = 0; c < np; ++c) old[c] = add && c < rz && !fine.on_boundary_1d(l0 + c) ? o[c * sz] : Number(0);
#pragma unroll
        for (int c = 0; c < np; ++c)
          if (c < rz && !fine.on_boundary_1d(l0 + c)) o[c * sz] = old[c] + acc[c][0];
      }};
      contract<2, np, np, nb, np, 1, 1, 1, false, np, T, false>(t, {Pz}, {T2}, one, column);
    } else {
      contract<2, np, np, nb, np, 1, 1, 1, false, np, T, false>(t, {Pz}, {T2}, one, store);
    }
  }
}

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(TransferPlan<dim, k, Number>::T *TransferPlan<dim, k, Number>::C)
  restrict_kernel(const Box coarse, const Box fine, const Number *__restrict__ Rm, const CellRange cc,
                  const Number *__restrict__ xf, Number *xc)
{
  using Plan = TransferPlan<dim, k, Number>;
  constexpr int nb = Plan::nb, np = Plan::np, T = Plan::T, pz = Plan::pz;
  Number *sm = shared_base<Number>();
  Number *Rs = sm;
  const int tid = threadIdx.x, cib = tid / T, t = tid % T;
  Number *Y = sm + Plan::mats + cib * Plan::r_per_cell, *T1 = Y + np * np * pz, *T2 = T1 + nb * np * pz;
  for (int i = tid; i < np * nb; i += blockDim.x) Rs[i] = Rm[i];
  const long cid = (long)blockIdx.x * Plan::C + cib;
  const bool valid = cid < cc.ncells;
  int cell[3] = {0, 0, 0};
  if (valid) cc.cell<dim>(cid, coarse, cell);
  const int cx = cell[0], cy = cell[1], cz = cell[2];
  const int rx = rows_of(k, cx, coarse.cells), ry = rows_of(k, cy, coarse.cells), rz = dim == 3 ? rows_of(k, cz, coarse.cells) : 1;
  {
    const int i0 = 2 * cx * k, j0 = 2 * cy * k, l0 = dim == 3 ? 2 * cz * k : 0;
    gather_box<Plan::async, np, np, pz, T>(t, Y, xf, valid ? fine.owned_index(i0, j0, l0) : 0, fine.om[0], (long)fine.om[0] * fine.om[1],
                                           [&](int a, int b) {
                                             return [&, a, b](int c) {
                                               return valid && a < rx && b < ry && c < rz && !fine.on_boundary(i0 + a, j0 + b, l0 + c);
                                             };
                                           });
  }
  __syncthreads();
  const Number *Rz = Rs, *Rxy = Rs; // as in prolongate_kernel
  if constexpr (Plan::reference) Rz = reference_transfer<k, Number>.R;
  if constexpr (Plan::lines) Rxy = Rz;
  constexpr bool Ln = Plan::lines;
  auto one = [](Number *acc, const Number *mv, const Number *iv) { acc[0] += mv[0] * iv[0]; };
  contract<0, np, np, pz, nb, 1, 1, 1, false, np, T, false, 1, 0, false, Ln>(
    t, {Rxy}, {Y}, one, [&](const Number *acc, int, int, int, int o, int) { T1[o] = acc[0]; });
  __syncthreads();
  auto add = [&](const Number *acc, int a, int b, int c, int, int) {
    if (valid) atomicAdd(xc + coarse.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0), acc[0]);
  };
  if constexpr (dim == 2) {
    contract<1, nb, np, 1, nb, 1, 1, 1, false, np, T, false>(t, {Rs}, {T1}, one, add);
  } else {
    contract<1, nb, np, np, nb, 1, 1, 1, false, np, T, false, 1, 0, false, Ln>(
      t, {Rxy}, {T1}, one, [&](const Number *acc, int, int, int, int o, int) { T2[o] = acc[0]; });
    __syncthreads();
    contract<2, nb, nb, np, nb, 1, 1, 1, false, np, T, false>(t, {Rz}, {T2}, one, add);
  }
}

// k = 1: no shared memory and no atomics; one thread per column of points across the
// directions other than the last, marching along the last (MarchTile). Along each
// direction a fine point f lies in coarse cell c = min(f / 2, cells - 1) at local row
// a = f - 2c (the transfer_rows rule) and takes the values of the coarse points c and
// c + 1 with weights P[a][0], P[a][1]. Those weights are zero where the cell is not owned
// by the coarse box or the fine point lies on the domain boundary, and in prolongation
// where the coarse point does (as in cpu::prolongate / cpu::restrict_add). Prolongation gathers 2^d coarse values per fine
// point, reusing the coarse plane sums of the previous fine plane; restriction gathers,
// for coarse point I, the fine points f = 2I - 1 + o, o = 0..2 (f = 2I +- 2 carry weight
// P[0][1] = P[2][0] = 0), reusing the fine plane sum of f = 2I + 1 for the next I.
template <typename Number>
__device__ __forceinline__ Number k1_weight(const Box &coarse, const Box &fine, const Number *__restrict__ P, int d, int f, int I)
{
  const int c = min(f / 2, coarse.cells - 1), b = I - c;
  const bool on = f >= 0 && f < fine.n && b >= 0 && b <= 1 && c >= coarse.cs[d] && c < coarse.ce[d] && !fine.on_boundary_1d(f);
  return on ? P[(f - 2 * c) * 2 + b] : Number(0);
}
// Prolongation: coarse boundary values count as zero.
template <typename Number>
__device__ __forceinline__ Number k1_interp_weight(const Box &coarse, const Box &fine, const Number *__restrict__ P, int d, int f, int I)
{
  return coarse.on_boundary_1d(I) ? Number(0) : k1_weight(coarse, fine, P, d, f, I);
}

template <int dim>
using ProlongTile = MarchTile<dim, 1, k1_prolong_chunk(dim)>;
static_assert(k1_prolong_chunk(2) % 2 == 0 && k1_prolong_chunk(3) % 2 == 0, "prolongate_k1_kernel: a chunk holds whole fine plane pairs");
template <int dim>
using RestrictTile = MarchTile<dim, 1, k1_restrict_chunk(dim)>;

template <int dim, typename Number>
__global__ void __launch_bounds__(ProlongTile<dim>::threads)
  prolongate_k1_kernel(const Box coarse, const Box fine, const Number *__restrict__ P, const Number *__restrict__ xc, Number *__restrict__ xf,
                       const bool add)
{
  using Tile = ProlongTile<dim>;
  constexpr int m = Tile::m;
  // This thread's fine column (f0, f1), its coarse cell (c0, c1) and weights.
  const int f0 = fine.os[0] + Tile::col0(), f1 = dim == 3 ? fine.os[1] + Tile::col1() : 0;
  if (Tile::col0() >= fine.om[0] || (dim == 3 && Tile::col1() >= fine.om[1])) return;
  const int c0 = min(f0 / 2, coarse.cells - 1), c1 = dim == 3 ? min(f1 / 2, coarse.cells - 1) : 0;
  Number w0[2], w1[2];
  bool any = false;
#pragma unroll
  for (int b = 0; b < 2; ++b) {
    w0[b] = k1_interp_weight(coarse, fine, P, 0, f0, c0 + b);
    w1[b] = dim == 3 ? k1_interp_weight(coarse, fine, P, 1, f1, c1 + b) : Number(b == 0);
    any = any || w0[b] != Number(0);
  }
  // (columns on the boundary have zero weights; an overwrite writes every other one, zeros
  // where all the coarse points are on the boundary)
  if (fine.on_boundary_1d(f0) || (dim == 3 && fine.on_boundary_1d(f1))) return;
  if (add && (!any || (w1[0] == Number(0) && w1[1] == Number(0)))) return;
  const long cs = plane_stride<dim>(coarse.gm), fs = plane_stride<dim>(fine.om);
  const long ccol = column_offset<dim>(coarse.gm, c0 - coarse.gs[0], c1 - coarse.gs[1]);
  const long fcol = column_offset<dim>(fine.om, f0 - fine.os[0], f1 - fine.os[1]);
  auto plane = [&](int c) { // coarse plane sum at this column (points of an owned cell: inside the local array)
    const Number *v = xc + ccol + (long)(c - coarse.gs[m]) * cs;
    Number s = w1[0] * (w0[0] * v[0] + w0[1] * v[1]);
    if constexpr (dim == 3) s += w1[1] * (w0[0] * v[coarse.gm[0]] + w0[1] * v[coarse.gm[0] + 1]);
    return s;
  };
  // Coarse cells c of this chunk along m: fine planes 2c and 2c + 1 (2 cells: the last
  // fine plane 2 cells lies on the boundary).
  const int fz0 = fine.os[m], fz1 = fz0 + fine.om[m];
  const int q_begin = fz0 / 2 + Tile::chunk_index() * (Tile::chunk / 2), q_end = min(q_begin + Tile::chunk / 2, (fz1 + 1) / 2);
  bool have = false;
  Number s0 = 0, s1 = 0;
  for (int q = q_begin; q < q_end; ++q) {
    if (q < coarse.cs[m] || q >= coarse.ce[m]) {
      have = false;
      continue;
    }
    s0 = have ? s1 : plane(q);
    s1 = plane(q + 1);
    have = true;
    Number wz[2][2];
    bool write[2];
#pragma unroll
    for (int a = 0; a < 2; ++a) {
      const int f = 2 * q + a;
      wz[a][0] = k1_interp_weight(coarse, fine, P, m, f, q);
      wz[a][1] = k1_interp_weight(coarse, fine, P, m, f, q + 1);
      write[a] = f >= fz0 && f < fz1 && (add ? wz[a][0] != Number(0) || wz[a][1] != Number(0) : !fine.on_boundary_1d(f));
    }
    Number *o = xf + fcol + (long)(2 * q - fz0) * fs;
    Number old[2];
#pragma unroll
    for (int a = 0; a < 2; ++a) old[a] = add && write[a] ? o[a * fs] : Number(0);
#pragma unroll
    for (int a = 0; a < 2; ++a)
      if (write[a]) o[a * fs] = old[a] + wz[a][0] * s0 + wz[a][1] * s1;
  }
}

template <int dim, typename Number>
__global__ void __launch_bounds__(RestrictTile<dim>::threads)
  restrict_k1_kernel(const Box coarse, const Box fine, const Number *__restrict__ P, const Number *__restrict__ xf, Number *__restrict__ xc)
{
  using Tile = RestrictTile<dim>;
  constexpr int m = Tile::m;
  // This thread's coarse column (I0, I1) of the local array and the weights of the fine
  // points 2I - 1 + o around it.
  if (Tile::col0() >= coarse.gm[0] || (dim == 3 && Tile::col1() >= coarse.gm[1])) return;
  const int I0 = coarse.gs[0] + Tile::col0(), I1 = dim == 3 ? coarse.gs[1] + Tile::col1() : 0;
  Number w0[3], w1[3];
  bool any0 = false, any1 = false;
#pragma unroll
  for (int o = 0; o < 3; ++o) {
    w0[o] = k1_weight(coarse, fine, P, 0, 2 * I0 - 1 + o, I0);
    w1[o] = dim == 3 ? k1_weight(coarse, fine, P, 1, 2 * I1 - 1 + o, I1) : Number(o == 0);
    any0 = any0 || w0[o] != Number(0);
    any1 = any1 || w1[o] != Number(0);
  }
  if (!any0 || !any1) return;
  const long cs = plane_stride<dim>(coarse.gm), fs = plane_stride<dim>(fine.om);
  const long ccol = column_offset<dim>(coarse.gm, Tile::col0(), Tile::col1());
  // (fine points with nonzero weight are owned: offsets relative to 2I - 1 stay in range)
  const long fcol = column_offset<dim>(fine.om, 2 * I0 - 1 - fine.os[0], dim == 3 ? 2 * I1 - 1 - fine.os[1] : 0);
  auto plane = [&](int f) { // weighted fine plane sum around this column
    const Number *v = xf + fcol + (long)(f - fine.os[m]) * fs;
    Number s = 0;
#pragma unroll
    for (int b = 0; b < (dim == 3 ? 3 : 1); ++b) {
      if (w1[b] == Number(0)) continue;
      Number r = 0;
#pragma unroll
      for (int a = 0; a < 3; ++a)
        if (w0[a] != Number(0)) r += w0[a] * v[b * fine.om[0] + a];
      s += w1[b] * r;
    }
    return s;
  };
  const int z0 = coarse.gs[m], z1 = z0 + coarse.gm[m];
  const int K_begin = z0 + Tile::chunk_index() * Tile::chunk, K_end = min(K_begin + Tile::chunk, z1);
  int cached = -2; // fine plane whose sum is in t_last
  Number t_last = 0;
  for (int K = K_begin; K < K_end; ++K) {
    Number sum = 0;
    bool any = false;
#pragma unroll
    for (int o = 0; o < 3; ++o) {
      const int f = 2 * K - 1 + o;
      const Number wz = k1_weight(coarse, fine, P, m, f, K);
      if (wz == Number(0)) continue;
      const Number t = f == cached ? t_last : plane(f);
      if (o == 2) {
        cached = f;
        t_last = t;
      }
      sum += wz * t;
      any = true;
    }
    if (any) xc[ccol + (long)(K - z0) * cs] += sum;
  }
}

// The k = 1 transfers' grid; its y and z extents (3D: rows of columns, chunks along the
// marching direction; 2D: chunks) are limited to 65535 blocks.
template <typename Tile>
dim3 k1_grid(long n0, long n1, long nm)
{
  const dim3 g = Tile::grid(n0, n1, nm);
  if (g.y > 65535u || g.z > 65535u)
    throw std::invalid_argument("vpatch cuda: transfer (k = 1): grid of more than 65535 blocks along y or z");
  return g;
}

template <int dim, int k, typename Number>
void launch_transfer(bool restrict_, const Box &coarse, const Box &fine, TransferView<Number> tv, const Number *in, Number *out,
                     cudaStream_t stream, bool add)
{
  using Plan = TransferPlan<dim, k, Number>;
  const CellRange cc = owned_cells(coarse);
  if (cc.ncells <= 0) return;
  // (each direction's kernels instantiated only where that direction does not run by tiles)
  constexpr bool tiled_p = tiled_transfers(dim, k, sizeof(Number) == 8, false), tiled_r = tiled_transfers(dim, k, sizeof(Number) == 8, true);
  if (restrict_ ? tiled_r : tiled_p) {
    if constexpr (tiled_p || tiled_r) launch_transfer_tiles<k, Number>(restrict_, coarse, fine, tv, in, out, stream, add);
    return;
  }
  if constexpr (tiled_p && tiled_r) return;
  else if constexpr (k == 1) {
    constexpr int m = MarchTile<dim>::m;
    if constexpr (!tiled_r) {
      if (restrict_) {
        using Tile = RestrictTile<dim>;
        restrict_k1_kernel<dim, Number><<<k1_grid<Tile>(coarse.gm[0], coarse.gm[1], coarse.gm[m]), Tile::block(), 0, stream>>>(
          coarse, fine, tv.prolongation, in, out);
      }
    }
    if constexpr (!tiled_p) {
      if (!restrict_) {
        using Tile = ProlongTile<dim>;
        const long pairs = (fine.os[m] + fine.om[m] + 1) / 2 - fine.os[m] / 2; // (2c, 2c + 1) fine plane pairs
        prolongate_k1_kernel<dim, Number><<<k1_grid<Tile>(fine.om[0], fine.om[1], 2 * pairs), Tile::block(), 0, stream>>>(
          coarse, fine, tv.prolongation, in, out, add);
      }
    }
    check_launch("transfer (k = 1) kernel launch");
  } else {
    check_cell_range(cc, restrict_ ? "restrict_add" : "prolongate");
    const long blocks = (cc.ncells + Plan::C - 1) / Plan::C;
    if constexpr (!tiled_r) {
      if (restrict_) {
        static int configured = -1;
        auto kernel = restrict_kernel<dim, k, Number>;
        prepare_shared(kernel, Plan::r_smem, "restrict_add", configured);
        kernel<<<(unsigned)blocks, Plan::T * Plan::C, Plan::r_smem, stream>>>(coarse, fine, tv.restriction, cc, in, out);
        check_launch("restrict_add kernel launch");
      }
    }
    if constexpr (!tiled_p) {
      if (!restrict_) {
        static int configured = -1;
        auto kernel = prolongate_kernel<dim, k, Number>;
        prepare_shared(kernel, Plan::p_smem, "prolongate", configured);
        kernel<<<(unsigned)blocks, Plan::T * Plan::C, Plan::p_smem, stream>>>(coarse, fine, tv.prolongation, cc, in, out, add);
        check_launch("prolongate kernel launch");
      }
    }
  }
}

inline void check_boxes(const Box &coarse, const Box &fine)
{
  if (coarse.dim != fine.dim || coarse.degree != fine.degree || fine.cells != 2 * coarse.cells)
    throw std::invalid_argument("vpatch cuda: transfer between boxes that are not a coarse/fine pair");
}

} // namespace detail

template <typename Number>
void prolongate(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xc, Number *xf, void *stream, bool add)
{
  detail::check_boxes(coarse, fine);
  dispatch(coarse.dim, coarse.degree, [&](auto d, auto k) {
    detail::launch_transfer<decltype(d)::value, decltype(k)::value, Number>(false, coarse, fine, t, xc, xf,
                                                                            detail::to_stream(stream), add);
  });
}

template <typename Number>
void restrict_add(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xf, Number *xc, void *stream)
{
  detail::check_boxes(coarse, fine);
  dispatch(coarse.dim, coarse.degree, [&](auto d, auto k) {
    detail::launch_transfer<decltype(d)::value, decltype(k)::value, Number>(true, coarse, fine, t, xf, xc,
                                                                            detail::to_stream(stream), true);
  });
}

template void prolongate<float>(const Box &, const Box &, TransferView<float>, const float *, float *, void *, bool);
template void prolongate<double>(const Box &, const Box &, TransferView<double>, const double *, double *, void *, bool);
template void restrict_add<float>(const Box &, const Box &, TransferView<float>, const float *, float *, void *);
template void restrict_add<double>(const Box &, const Box &, TransferView<double>, const double *, double *, void *);

} // namespace cuda
} // namespace vpatch
