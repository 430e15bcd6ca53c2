// Grid transfers between a coarse level and the fine level of the same degree k (every
// coarse cell split into 2^d fine cells): xf_owned += P xc_local and xc_local += P^T xf_owned,
// one coarse cell per thread group, sum factorization in shared memory. See cpu::prolongate,
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

template <int dim, int k, typename Number>
void launch_transfer(bool restrict_, const Box &coarse, const Box &fine, TransferView<Number> tv, const Number *in, Number *out,
                     cudaStream_t stream)
{
  using Plan = TransferPlan<dim, k, Number>;
  const CoarseCells cc = coarse_cells(coarse);
  if (cc.ncells <= 0) return;
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
