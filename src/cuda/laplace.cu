// Matrix-free Laplacian y += A x over the owned cells (sum factorization in shared memory,
// atomicAdd into the shared points) and its diagonal. See cpu::laplace_apply.
#include "../core/dispatch.hpp"
#include "common.cuh"
#include "tuning.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

template <int dim, int k, typename Number>
struct CellPlan {
  static constexpr int nb = k + 1, T = nb * nb, C = cells_per_block_laplace(dim, k);
  static constexpr int nz = dim == 3 ? nb : 1, nd = nb * nb * nz;
  static constexpr int per_cell = 3 * nd, mats = 2 * nb * nb;
  static constexpr std::size_t smem = sizeof(Number) * (std::size_t)(mats + C * per_cell);
};

struct CellRange {
  int count[3];
  long ncells;
};

inline CellRange owned_cells(const Box &box)
{
  CellRange r{};
  r.ncells = 1;
  for (int d = 0; d < 3; ++d) {
    r.count[d] = box.ce[d] > box.cs[d] ? box.ce[d] - box.cs[d] : 0;
    r.ncells *= r.count[d];
  }
  return r;
}

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(CellPlan<dim, k, Number>::T *CellPlan<dim, k, Number>::C)
  laplace_kernel(const Box box, const OperatorView<Number> op, const CellRange cr, const Number *__restrict__ x, Number *y)
{
  using Plan = CellPlan<dim, k, Number>;
  constexpr int nb = Plan::nb, T = Plan::T, nz = Plan::nz;
  Number *sm = shared_base<Number>();
  Number *M = sm, *K = M + nb * nb;
  const int tid = threadIdx.x, cib = tid / T, t = tid % T;
  Number *X = sm + Plan::mats + cib * Plan::per_cell, *B0 = X + Plan::nd, *B1 = B0 + Plan::nd;
  for (int i = tid; i < nb * nb; i += blockDim.x) {
    M[i] = op.mass[i];
    K[i] = op.stiffness[i];
  }
  const long cid = (long)blockIdx.x * Plan::C + cib;
  const bool valid = cid < cr.ncells;
  int i0 = 0, j0 = 0, l0 = 0;
  if (valid) {
    i0 = (box.cs[0] + (int)(cid % cr.count[0])) * k;
    j0 = (box.cs[1] + (int)((cid / cr.count[0]) % cr.count[1])) * k;
    l0 = dim == 3 ? (box.cs[2] + (int)(cid / ((long)cr.count[0] * cr.count[1]))) * k : 0;
  }
  const long gy = box.gm[0], gz = (long)box.gm[0] * box.gm[1];
  const long base = valid ? box.local_index(i0, j0, l0) : 0;
  for (int q = t; q < Plan::nd; q += T) {
    const int xa = q % nb, yb = (q / nb) % nb, zc = q / (nb * nb);
    X[q] = (valid && !box.on_boundary(i0 + xa, j0 + yb, l0 + zc)) ? x[base + xa + yb * gy + zc * gz] : Number(0);
  }
  __syncthreads();
  contract<0, nb, nb, nz, nb, 2, 1, 2, false, nb, T, false>(
    t, {M, K}, {X}, [](Number *acc, const Number *mv, const Number *iv) {
      acc[0] += mv[0] * iv[0];
      acc[1] += mv[1] * iv[0];
    },
    [&](const Number *acc, int, int, int, int o) { B0[o] = acc[0]; B1[o] = acc[1]; });
  __syncthreads();
  auto add = [&](const Number *acc, int xa, int yb, int zc, int) {
    if (valid) atomicAdd(y + base + xa + yb * gy + zc * gz, acc[0]);
  };
  auto two = [](Number *acc, const Number *mv, const Number *iv) { acc[0] += mv[0] * iv[0] + mv[1] * iv[1]; };
  if constexpr (dim == 2) {
    contract<1, nb, nb, 1, nb, 2, 2, 1, false, nb, T, false>(t, {M, K}, {B1, B0}, two, add); // M_1 c + K_1 a
  } else {
    contract<1, nb, nb, nz, nb, 2, 2, 2, false, nb, T, true>( // u = M_1 c + K_1 a, v = M_1 a
      t, {M, K}, {B1, B0},
      [](Number *acc, const Number *mv, const Number *iv) {
        acc[0] += mv[0] * iv[0] + mv[1] * iv[1];
        acc[1] += mv[0] * iv[1];
      },
      [&](const Number *acc, int, int, int, int o) { B0[o] = acc[0]; B1[o] = acc[1]; });
    __syncthreads();
    contract<2, nb, nb, nz, nb, 2, 2, 1, false, nb, T, false>(t, {M, K}, {B0, B1}, two, add); // M_2 u + K_2 v
  }
}

template <int dim, int k, typename Number>
void launch_laplace(const Box &box, OperatorView<Number> op, const Number *x, Number *y, cudaStream_t stream)
{
  using Plan = CellPlan<dim, k, Number>;
  const CellRange cr = owned_cells(box);
  if (cr.ncells <= 0) return;
  static int configured = -1;
  auto kernel = laplace_kernel<dim, k, Number>;
  prepare_shared(kernel, Plan::smem, "laplace_apply", configured);
  const long blocks = (cr.ncells + Plan::C - 1) / Plan::C;
  kernel<<<(unsigned)blocks, Plan::T * Plan::C, Plan::smem, stream>>>(box, op, cr, x, y);
  check_launch("laplace_apply kernel launch");
}

// One thread per (cell, cell point): d += sum_d K_dd prod_{e != d} M_ee.
template <typename Number>
__global__ void diagonal_kernel(const Box box, const OperatorView<Number> op, const CellRange cr, Number *d)
{
  const int k = box.degree, nb = k + 1, dim = box.dim;
  const long npc = dim == 3 ? (long)nb * nb * nb : (long)nb * nb;
  const long total = cr.ncells * npc;
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < total; g += (long)gridDim.x * blockDim.x) {
    const long cid = g / npc;
    const int q = (int)(g % npc), a = q % nb, b = (q / nb) % nb, c = q / (nb * nb);
    const int cx = box.cs[0] + (int)(cid % cr.count[0]), cy = box.cs[1] + (int)((cid / cr.count[0]) % cr.count[1]),
              cz = box.cs[2] + (int)(cid / ((long)cr.count[0] * cr.count[1]));
    const Number ma = op.mass[a * nb + a], mb = op.mass[b * nb + b], ka = op.stiffness[a * nb + a],
                 kb = op.stiffness[b * nb + b];
    Number v;
    if (dim == 2) v = ka * mb + ma * kb;
    else {
      const Number mc = op.mass[c * nb + c], kc = op.stiffness[c * nb + c];
      v = ka * mb * mc + ma * kb * mc + ma * mb * kc;
    }
    atomicAdd(d + box.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0), v);
  }
}

} // namespace detail

template <typename Number>
void laplace_apply(const Box &box, OperatorView<Number> op, const Number *x, Number *y, void *stream)
{
  dispatch(box.dim, box.degree, [&](auto d, auto k) {
    detail::launch_laplace<decltype(d)::value, decltype(k)::value, Number>(box, op, x, y, detail::to_stream(stream));
  });
}

template <typename Number>
void laplace_diagonal(const Box &box, OperatorView<Number> op, Number *d, void *stream)
{
  if (box.dim != 2 && box.dim != 3) throw std::invalid_argument("vpatch cuda: dimension out of range");
  if (box.degree < 1 || box.degree > kMaxDegree) throw std::invalid_argument("vpatch cuda: degree out of range");
  const detail::CellRange cr = detail::owned_cells(box);
  if (cr.ncells <= 0) return;
  const long npc = box.dim == 3 ? (long)(box.degree + 1) * (box.degree + 1) * (box.degree + 1)
                                 : (long)(box.degree + 1) * (box.degree + 1);
  const long total = cr.ncells * npc;
  const int threads = 256;
  const long blocks = std::min<long>((total + threads - 1) / threads, 1L << 20);
  detail::diagonal_kernel<Number><<<(unsigned)blocks, threads, 0, detail::to_stream(stream)>>>(box, op, cr, d);
  detail::check_launch("laplace_diagonal kernel launch");
}

template void laplace_apply<float>(const Box &, OperatorView<float>, const float *, float *, void *);
template void laplace_apply<double>(const Box &, OperatorView<double>, const double *, double *, void *);
template void laplace_diagonal<float>(const Box &, OperatorView<float>, float *, void *);
template void laplace_diagonal<double>(const Box &, OperatorView<double>, double *, void *);

} // namespace cuda
} // namespace vpatch
