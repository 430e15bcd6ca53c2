// Grid transfers between a coarse level and the fine level of the same degree k (every
// coarse cell split into 2^d fine cells): xf_owned += P xc_local and xc_local += P^T xf_owned,
// one coarse cell per thread group, sum factorization in shared memory (k = 1: one thread per
// point, below). See cpu::prolongate,
// cpu::restrict_add (transfer_rows rule: each fine point is written by exactly one cell).
#include "../core/dispatch.hpp"
#include "common.cuh"
#include "tuning.hpp"

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
  static constexpr std::size_t p_smem = sizeof(Number) * (std::size_t)(mats + C * p_per_cell);
  static constexpr std::size_t r_smem = sizeof(Number) * (std::size_t)(mats + C * r_per_cell);
};

struct CoarseCells {
  int count[3];
  long ncells;
};

inline CoarseCells coarse_cells(const Box &coarse)
{
  CoarseCells r{};
  r.ncells = 1;
  for (int d = 0; d < 3; ++d) {
    r.count[d] = coarse.ce[d] > coarse.cs[d] ? coarse.ce[d] - coarse.cs[d] : 0;
    r.ncells *= r.count[d];
  }
  return r;
}

__device__ __forceinline__ int rows_of(int k, int cell, int cells) { return cell == cells - 1 ? 2 * k + 1 : 2 * k; }

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(TransferPlan<dim, k, Number>::T *TransferPlan<dim, k, Number>::C)
  prolongate_kernel(const Box coarse, const Box fine, const Number *__restrict__ Pm, const CoarseCells cc,
                    const Number *__restrict__ xc, Number *xf)
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
  int cx = 0, cy = 0, cz = 0;
  if (valid) {
    cx = coarse.cs[0] + (int)(cid % cc.count[0]);
    cy = coarse.cs[1] + (int)((cid / cc.count[0]) % cc.count[1]);
    cz = dim == 3 ? coarse.cs[2] + (int)(cid / ((long)cc.count[0] * cc.count[1])) : 0;
  }
  for (int q = t; q < nb * nb * bz; q += T) {
    const int xa = q % nb, yb = (q / nb) % nb, zc = q / (nb * nb);
    const int i = cx * k + xa, j = cy * k + yb, l = dim == 3 ? cz * k + zc : 0;
    X[q] = (valid && !coarse.on_boundary(i, j, l)) ? xc[coarse.local_index(i, j, l)] : Number(0);
  }
  __syncthreads();
  auto one = [](Number *acc, const Number *mv, const Number *iv) { acc[0] += mv[0] * iv[0]; };
  contract<0, nb, nb, bz, np, 1, 1, 1, false, np, T, false>(t, {Ps}, {X}, one,
                                                             [&](const Number *acc, int, int, int, int o, int) { T1[o] = acc[0]; });
  __syncthreads();
  const int rx = rows_of(k, cx, coarse.cells), ry = rows_of(k, cy, coarse.cells), rz = dim == 3 ? rows_of(k, cz, coarse.cells) : 1;
  auto store = [&](const Number *acc, int a, int b, int c, int, int) {
    if (!valid || a >= rx || b >= ry || c >= rz) return;
    const int i = 2 * cx * k + a, j = 2 * cy * k + b, l = dim == 3 ? 2 * cz * k + c : 0;
    if (!fine.on_boundary(i, j, l)) xf[fine.owned_index(i, j, l)] += acc[0];
  };
  if constexpr (dim == 2) {
    contract<1, np, nb, 1, np, 1, 1, 1, false, np, T, false>(t, {Ps}, {T1}, one, store);
  } else {
    contract<1, np, nb, nb, np, 1, 1, 1, false, np, T, false>(t, {Ps}, {T1}, one,
                                                              [&](const Number *acc, int, int, int, int o, int) { T2[o] = acc[0]; });
    __syncthreads();
    contract<2, np, np, nb, np, 1, 1, 1, false, np, T, false>(t, {Ps}, {T2}, one, store);
  }
}

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(TransferPlan<dim, k, Number>::T *TransferPlan<dim, k, Number>::C)
  restrict_kernel(const Box coarse, const Box fine, const Number *__restrict__ Rm, const CoarseCells cc,
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
  int cx = 0, cy = 0, cz = 0;
  if (valid) {
    cx = coarse.cs[0] + (int)(cid % cc.count[0]);
    cy = coarse.cs[1] + (int)((cid / cc.count[0]) % cc.count[1]);
    cz = dim == 3 ? coarse.cs[2] + (int)(cid / ((long)cc.count[0] * cc.count[1])) : 0;
  }
  const int rx = rows_of(k, cx, coarse.cells), ry = rows_of(k, cy, coarse.cells), rz = dim == 3 ? rows_of(k, cz, coarse.cells) : 1;
  for (int q = t; q < np * np * pz; q += T) {
    const int a = q % np, b = (q / np) % np, c = q / (np * np);
    const int i = 2 * cx * k + a, j = 2 * cy * k + b, l = dim == 3 ? 2 * cz * k + c : 0;
    Y[q] = (!valid || a >= rx || b >= ry || c >= rz || fine.on_boundary(i, j, l)) ? Number(0) : xf[fine.owned_index(i, j, l)];
  }
  __syncthreads();
  auto one = [](Number *acc, const Number *mv, const Number *iv) { acc[0] += mv[0] * iv[0]; };
  contract<0, np, np, pz, nb, 1, 1, 1, false, np, T, false>(t, {Rs}, {Y}, one,
                                                             [&](const Number *acc, int, int, int, int o, int) { T1[o] = acc[0]; });
  __syncthreads();
  auto add = [&](const Number *acc, int a, int b, int c, int, int) {
    if (valid) atomicAdd(xc + coarse.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0), acc[0]);
  };
  if constexpr (dim == 2) {
    contract<1, nb, np, 1, nb, 1, 1, 1, false, np, T, false>(t, {Rs}, {T1}, one, add);
  } else {
    contract<1, nb, np, np, nb, 1, 1, 1, false, np, T, false>(t, {Rs}, {T1}, one,
                                                              [&](const Number *acc, int, int, int, int o, int) { T2[o] = acc[0]; });
    __syncthreads();
    contract<2, nb, nb, np, nb, 1, 1, 1, false, np, T, false>(t, {Rs}, {T2}, one, add);
  }
}

// k = 1: one thread per point, no shared memory and no atomics. Along each direction a
// fine point f lies in coarse cell c = min(f / 2k, cells - 1) at local row a = f - 2kc
// (the transfer_rows rule), so prolongation gathers the (k+1)^d coarse values of that
// cell with the tensor weights P[a][b], and restriction gathers, for coarse point I, the
// fine points f = 2k(I - 1) + o, o = 0..4k, whose cell c holds I (b = I - ck in 0..k),
// with weights P[a][b]. Cells not owned by the coarse box and points on the domain
// boundary get weight 0 (as in cpu::prolongate / cpu::restrict_add).
template <int k>
__device__ __forceinline__ int coarse_cell_of(int f, int cells)
{
  const int c = f / (2 * k);
  return c < cells ? c : cells - 1;
}

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(256) prolongate_point_kernel(const Box coarse, const Box fine, const Number *__restrict__ Pm,
                                                               const Number *__restrict__ xc, Number *__restrict__ xf)
{
  constexpr int nb = k + 1;
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= fine.owned_points()) return;
  int f[3];
  split3(g, fine.om[0], fine.om[1], f[0], f[1], f[2]);
#pragma unroll
  for (int d = 0; d < 3; ++d) f[d] += fine.os[d];
  if (fine.on_boundary(f[0], f[1], f[2])) return;
  Number w[3][nb];
  int base[3];
#pragma unroll
  for (int d = 0; d < 3; ++d) {
    if (d >= dim) {
      base[d] = 0;
#pragma unroll
      for (int b = 0; b < nb; ++b) w[d][b] = b == 0 ? Number(1) : Number(0);
      continue;
    }
    const int c = coarse_cell_of<k>(f[d], coarse.cells), a = f[d] - 2 * k * c;
    if (c < coarse.cs[d] || c >= coarse.ce[d]) return; // not interpolated by this rank
    base[d] = c * k;
#pragma unroll
    for (int b = 0; b < nb; ++b) w[d][b] = coarse.on_boundary_1d(c * k + b) ? Number(0) : Pm[a * nb + b];
  }
  Number sum = 0;
#pragma unroll
  for (int bz = 0; bz < (dim == 3 ? nb : 1); ++bz)
#pragma unroll
    for (int by = 0; by < nb; ++by) {
      const Number wyz = w[2][bz] * w[1][by];
      if (wyz == Number(0)) continue;
      const Number *row = xc + coarse.local_index(base[0], base[1] + by, base[2] + bz);
      Number sx = 0;
#pragma unroll
      for (int bx = 0; bx < nb; ++bx)
        if (w[0][bx] != Number(0)) sx += w[0][bx] * row[bx];
      sum += wyz * sx;
    }
  xf[fine.owned_index(f[0], f[1], f[2])] += sum;
}

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(256) restrict_point_kernel(const Box coarse, const Box fine, const Number *__restrict__ Pm,
                                                             const Number *__restrict__ xf, Number *__restrict__ xc)
{
  constexpr int nb = k + 1, W = 4 * k + 1;
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= coarse.local_points()) return;
  int I[3];
  split3(g, coarse.gm[0], coarse.gm[1], I[0], I[1], I[2]);
#pragma unroll
  for (int d = 0; d < 3; ++d) I[d] += coarse.gs[d];
  Number w[3][W];
  int first[3];
  bool any = true;
#pragma unroll
  for (int d = 0; d < 3; ++d) {
    bool some = false;
    first[d] = d < dim ? 2 * k * (I[d] - 1) : 0;
#pragma unroll
    for (int o = 0; o < W; ++o) {
      Number v = 0;
      if (d >= dim) v = o == 0 ? Number(1) : Number(0);
      else {
        const int fo = first[d] + o;
        if (fo >= 0 && fo < fine.n && !fine.on_boundary_1d(fo)) {
          const int c = coarse_cell_of<k>(fo, coarse.cells), b = I[d] - c * k, a = fo - 2 * k * c;
          if (b >= 0 && b <= k && c >= coarse.cs[d] && c < coarse.ce[d]) v = Pm[a * nb + b];
        }
      }
      w[d][o] = v;
      some = some || v != Number(0);
    }
    any = any && some;
  }
  if (!any) return;
  Number sum = 0;
#pragma unroll
  for (int oz = 0; oz < (dim == 3 ? W : 1); ++oz)
#pragma unroll
    for (int oy = 0; oy < W; ++oy) {
      const Number wyz = w[2][oz] * w[1][oy];
      if (wyz == Number(0)) continue;
      Number sx = 0;
#pragma unroll
      for (int ox = 0; ox < W; ++ox)
        if (w[0][ox] != Number(0)) sx += w[0][ox] * xf[fine.owned_index(first[0] + ox, first[1] + oy, first[2] + oz)];
      sum += wyz * sx;
    }
  xc[g] += sum;
}

template <int dim, int k, typename Number>
void launch_transfer(bool restrict_, const Box &coarse, const Box &fine, TransferView<Number> tv, const Number *in, Number *out,
                     cudaStream_t stream)
{
  using Plan = TransferPlan<dim, k, Number>;
  const CoarseCells cc = coarse_cells(coarse);
  if (cc.ncells <= 0) return;
  if constexpr (k == 1) {
    const long points = restrict_ ? coarse.local_points() : fine.owned_points();
    const unsigned blocks = (unsigned)((points + 255) / 256);
    if (restrict_) restrict_point_kernel<dim, k, Number><<<blocks, 256, 0, stream>>>(coarse, fine, tv.prolongation, in, out);
    else prolongate_point_kernel<dim, k, Number><<<blocks, 256, 0, stream>>>(coarse, fine, tv.prolongation, in, out);
    check_launch("transfer (k = 1) kernel launch");
  } else {
    const long blocks = (cc.ncells + Plan::C - 1) / Plan::C;
    if (restrict_) {
      static int configured = -1;
      auto kernel = restrict_kernel<dim, k, Number>;
      prepare_shared(kernel, Plan::r_smem, "restrict_add", configured);
      kernel<<<(unsigned)blocks, Plan::T * Plan::C, Plan::r_smem, stream>>>(coarse, fine, tv.restriction, cc, in, out);
      check_launch("restrict_add kernel launch");
    } else {
      static int configured = -1;
      auto kernel = prolongate_kernel<dim, k, Number>;
      prepare_shared(kernel, Plan::p_smem, "prolongate", configured);
      kernel<<<(unsigned)blocks, Plan::T * Plan::C, Plan::p_smem, stream>>>(coarse, fine, tv.prolongation, cc, in, out);
      check_launch("prolongate kernel launch");
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
void prolongate(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xc, Number *xf, void *stream)
{
  detail::check_boxes(coarse, fine);
  dispatch(coarse.dim, coarse.degree, [&](auto d, auto k) {
    detail::launch_transfer<decltype(d)::value, decltype(k)::value, Number>(false, coarse, fine, t, xc, xf,
                                                                            detail::to_stream(stream));
  });
}

template <typename Number>
void restrict_add(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xf, Number *xc, void *stream)
{
  detail::check_boxes(coarse, fine);
  dispatch(coarse.dim, coarse.degree, [&](auto d, auto k) {
    detail::launch_transfer<decltype(d)::value, decltype(k)::value, Number>(true, coarse, fine, t, xf, xc,
                                                                            detail::to_stream(stream));
  });
}

template void prolongate<float>(const Box &, const Box &, TransferView<float>, const float *, float *, void *);
template void prolongate<double>(const Box &, const Box &, TransferView<double>, const double *, double *, void *);
template void restrict_add<float>(const Box &, const Box &, TransferView<float>, const float *, float *, void *);
template void restrict_add<double>(const Box &, const Box &, TransferView<double>, const double *, double *, void *);

} // namespace cuda
} // namespace vpatch
