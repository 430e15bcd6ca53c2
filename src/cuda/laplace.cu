// Matrix-free Laplacian y = A x over the owned cells and its diagonal (see
// cpu::laplace_apply): a per-point gather in registers (2D, 3D k <= 3: tuning.hpp,
// gather_operator), or cell-based sum factorization in shared memory with atomicAdd into
// the shared points (3D k >= 4: one thread per line, compiled-in matrices in even-odd
// form). Given b, the
// same kernels form the residual y = b - A x in the same pass (y starts from b and the
// cell contributions are subtracted; the gather subtracts its sum from b at the store).
#include "../core/dispatch.hpp"
#include "cell_layout.hpp"
#include "common.cuh"
#include "march.cuh"
#include "laplace_cell_columns.cuh"
#include "laplace_cell_columns_3d.cuh"
#include "reference_cell.cuh"
#include "reference_tables.hpp"
#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <cuda_pipeline.h>
#include "tuning.hpp"
#include "vector_ops_cuda.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

template <int dim, int k, typename Number>
struct CellPlan {
  static constexpr int nb = k + 1, T = nb * nb, C = cells_per_block_laplace(dim, k);
  static constexpr int nz = dim == 3 ? nb : 1, nd = nb * nb * nz;
  // compiled-in h = 1 cell matrices, x and y contractions by lines (tuning.hpp, reference_operator)
  static constexpr bool reference = reference_operator(dim, k, sizeof(Number) == 8);
  static constexpr bool evenodd = evenodd_operator(dim, k, sizeof(Number) == 8); // (reference only)
  // a cell's record: x, then B0 | B1 (cell_layout.hpp; compact unless searched)
  static constexpr CellLayout layout =
    cell_layout(k, C, (int)sizeof(Number), reference, C > 1 && pad_cell_stride(dim, k) ? bank_stride(3 * nd, T) : 3 * nd);
  static constexpr int x_size = cell_tensor_size(k, nz, layout.xy, layout.xz), b_size = cell_tensor_size(k, nz, layout.by, layout.bz);
  static constexpr int per_cell = layout.cell;
  static_assert(per_cell >= x_size + 2 * b_size, "CellPlan: the cell record holds x, B0 and B1");
  // the level's matrices in shared memory, rows padded where lanes' rows would share banks
  // (k + 1 = 8: x * 8 falls on 4 of 32 banks, 2 of 16 bank pairs); compiled in: (k+1)^2
  static constexpr int mat_stride = reference ? nb : bank_free_rows(nb, nb, (int)sizeof(Number));
  static constexpr int mats = reference ? 0 : 2 * nb * mat_stride;
  static constexpr bool async = async_gathers(dim, k);      // cp.async input gathers
  static constexpr std::size_t smem = sizeof(Number) * (std::size_t)(mats + C * per_cell);
  using MapX = TensorMap<1, layout.xy, layout.xz, 0>;
  using MapB = TensorMap<1, layout.by, layout.bz, 0>;
};

// acc[r][v] = (sum v)[r]: a line's outputs from its even-odd sums
template <int k, typename Number, int NR, int NV>
__device__ __forceinline__ void put_line(Number (&acc)[NR][NV], const EvenOddSum<k, Number> (&sums)[NV])
{
#pragma unroll
  for (int r = 0; r < NR; ++r)
#pragma unroll
    for (int v = 0; v < NV; ++v) acc[r][v] = sums[v][r];
}
// The three line bodies of laplace_kernel (the plain bodies' results, to rounding):
// x: (M x, K x); y: (M c + K a, M a) from (c, a); z: M u + K v from (u, v).
template <int k>
struct EvenOddX : WholeLineBody {
  template <typename Number, int NR>
  __device__ __forceinline__ void line(const Number (&in)[1][k + 1], Number (&acc)[NR][2]) const
  {
    const EvenOddLine<k, Number> x(in[0]);
    EvenOddSum<k, Number> s[2];
    s[0].add(evenodd_cell<k, Number>.M, x);
    s[1].add(evenodd_cell<k, Number>.K, x);
    put_line(acc, s);
  }
};
template <int k>
struct EvenOddY : WholeLineBody {
  template <typename Number, int NR>
  __device__ __forceinline__ void line(const Number (&in)[2][k + 1], Number (&acc)[NR][2]) const
  {
    const EvenOddLine<k, Number> c(in[0]), a(in[1]);
    EvenOddSum<k, Number> s[2];
    s[0].add(evenodd_cell<k, Number>.M, c);
    s[0].add(evenodd_cell<k, Number>.K, a);
    s[1].add(evenodd_cell<k, Number>.M, a);
    put_line(acc, s);
  }
};
template <int k>
struct EvenOddZ : WholeLineBody {
  template <typename Number, int NR>
  __device__ __forceinline__ void line(const Number (&in)[2][k + 1], Number (&acc)[NR][1]) const
  {
    const EvenOddLine<k, Number> u(in[0]), v(in[1]);
    EvenOddSum<k, Number> s[1];
    s[0].add(evenodd_cell<k, Number>.M, u);
    s[0].add(evenodd_cell<k, Number>.K, v);
    put_line(acc, s);
  }
};
// body a where On, else b
template <bool On, typename A, typename B>
__device__ __forceinline__ auto pick(A a, B b)
{
  if constexpr (On) return a;
  else return b;
}

template <int dim, int k, typename Number>
__global__ void __launch_bounds__(CellPlan<dim, k, Number>::T *CellPlan<dim, k, Number>::C)
  laplace_kernel(const Box box, const OperatorView<Number> op, const CellRange cr, const Number *__restrict__ x, Number *y,
                 const Number op_scale)
{
  using Plan = CellPlan<dim, k, Number>;
  constexpr int nb = Plan::nb, T = Plan::T, nz = Plan::nz, ms = Plan::mat_stride;
  using MapX = typename Plan::MapX;
  using MapB = typename Plan::MapB;
  constexpr CellLayout lay = Plan::layout;
  Number *sm = shared_base<Number>();
  Number *M = sm, *K = M + nb * ms;
  const int tid = threadIdx.x, cib = tid / T, t = tid % T;
  Number *X = sm + Plan::mats + cib * Plan::per_cell, *B0 = X + Plan::x_size, *B1 = B0 + Plan::b_size;
  if constexpr (!Plan::reference)
    for (int i = tid; i < nb * nb; i += blockDim.x) {
      const int o = ms == nb ? i : i / nb * ms + i % nb;
      M[o] = op.mass[i];
      K[o] = op.stiffness[i];
    }
  const long cid = (long)blockIdx.x * Plan::C + cib;
  const bool valid = cid < cr.ncells;
  int i0 = 0, j0 = 0, l0 = 0;
  if (valid) {
    int cell[3];
    cr.cell<dim>(cid, box, cell);
    i0 = cell[0] * k;
    j0 = cell[1] * k;
    l0 = cell[2] * k;
  }
  const long gy = box.gm[0], gz = (long)box.gm[0] * box.gm[1];
  const long base = valid ? box.local_index(i0, j0, l0) : 0;
  gather_box<Plan::async, nb, nb, nz, T, true, lay.xy, lay.xz>(t, X, x, base, gy, gz, [&](int xa, int yb) {
    return [&, xa, yb](int zc) { return valid && !box.on_boundary(i0 + xa, j0 + yb, l0 + zc); };
  });
  __syncthreads();
  // The matrices: the level's in shared memory, or (reference) the h = 1 ones compiled in,
  // with the x and y contractions by lines and the result scaled by op_scale = h^(d-2).
  const Number *Mm = M, *Km = K;
  if constexpr (Plan::reference) {
    Mm = reference_cell<k, Number>.M;
    Km = reference_cell<k, Number>.K;
  }
  constexpr bool Ln = Plan::reference, EO = Plan::evenodd;
  contract<0, nb, nb, nz, nb, 2, 1, 2, false, nb, T, false, 1, 0, false, Ln, false, MapX, MapB, lay.swap_x, ms>(
    t, {Mm, Km}, {X}, pick<EO>(EvenOddX<k>{}, [](Number *acc, const Number *mv, const Number *iv) {
      acc[0] += mv[0] * iv[0];
      acc[1] += mv[1] * iv[0];
    }),
    [&](const Number *acc, int, int, int, int o, int) { B0[o] = acc[0]; B1[o] = acc[1]; });
  __syncthreads();
  auto add = [&](const Number *acc, int xa, int yb, int zc, int, int) {
    if (valid) atomicAdd(y + base + xa + yb * gy + zc * gz, op_scale * acc[0]);
  };
  const SumOfTwo<chained_fma(false, dim, k, sizeof(Number) == 8)> two;
  if constexpr (dim == 2) {
    contract<1, nb, nb, 1, nb, 2, 2, 1, false, nb, T, false, 1, 0, false, false, false, MapB, MapB, false, ms>(
      t, {Mm, Km}, {B1, B0}, two, add); // M_1 c + K_1 a
  } else {
    contract<1, nb, nb, nz, nb, 2, 2, 2, false, nb, T, true, 1, 0, false, Ln, false, MapB, MapB, lay.swap_y, ms>( // u = M_1 c + K_1 a, v = M_1 a
      t, {Mm, Km}, {B1, B0}, pick<EO>(EvenOddY<k>{}, SumOfTwoAndMass<chained_fma(false, dim, k, sizeof(Number) == 8)>{}),
      [&](const Number *acc, int, int, int, int o, int) { B0[o] = acc[0]; B1[o] = acc[1]; });
    __syncthreads();
    contract<2, nb, nb, nz, nb, 2, 2, 1, false, nb, T, false, 1, 0, false, false, false, MapB, MapB, lay.swap_z, ms>(
      t, {Mm, Km}, {B0, B1}, pick<EO>(EvenOddZ<k>{}, two), add); // M_2 u + K_2 v
  }
}

// Gather (tuning.hpp, gather_operator): one thread per point gathers its row of A over the owned cells,
// no atomics. Along each direction the owned cells around a point give a 1D row of the
// mass and stiffness matrices (offsets -k..k; zero where no owned cell couples the two
// points or the neighbour lies on the domain boundary, where x counts as zero: the
// coefficients alone exclude the boundary values, so x needs no masking);
// A = K x M x M + M x K x M + M x M x K is applied by sum factorization in registers. A
// block marches along the last direction (MarchTile); each plane of x with its halo of k
// points is copied to a ring of shared-memory stages by cp.async, gather_stages - 1
// planes ahead of the one in use (enough bytes in flight to cover the memory latency;
// points outside the local array are zero-filled by the copy). A thread reduces each
// plane to its x-y sums pm = (M x M) x_p and pa = (K x M + M x K) x_p (2D: M x_p, K x_p)
// and scatters them into the 2k+1 pending outputs l = p-k..p+k (register accumulators
// whose shift is folded into the multiply-adds); output p-k is then complete. Every
// local point is written (y = A_owned x).
template <int k, typename Number>
__device__ __forceinline__ void row_1d(const Box &box, int d, int p, const Number *Mc, const Number *Kc, Number (&M)[2 * k + 1],
                                       Number (&K)[2 * k + 1])
{
  const int e_hi = p / k, r = p % k; // cell e_hi holds p at local index r; a vertex (r = 0) also ends cell e_hi - 1
  const bool hi = e_hi >= box.cs[d] && e_hi < box.ce[d], lo = r == 0 && e_hi - 1 >= box.cs[d] && e_hi - 1 < box.ce[d];
#pragma unroll
  for (int o = 0; o <= 2 * k; ++o) { // neighbour p + o - k
    Number m = 0, s = 0;
    const int q = o - k + r; // its local index in cell e_hi
    if (hi && q >= 0 && q <= k) {
      m += Mc[r * (k + 1) + q];
      s += Kc[r * (k + 1) + q];
    }
    if (lo && o <= k) { // local index o in cell e_hi - 1, p at index k
      m += Mc[k * (k + 1) + o];
      s += Kc[k * (k + 1) + o];
    }
    const bool zero = d < box.dim && box.on_boundary_1d(p + o - k);
    M[o] = zero ? Number(0) : m;
    K[o] = zero ? Number(0) : s;
  }
}

// sum_j a[j] b[j] as a chain of multiply-adds starting with a product.
template <int N, typename Number>
__device__ __forceinline__ Number dot(const Number (&a)[N], const Number *b)
{
  Number s = a[0] * b[0];
#pragma unroll
  for (int j = 1; j < N; ++j) s = fma(a[j], b[j], s);
  return s;
}

template <int dim, int k, typename Number, bool residual>
using GatherTile = MarchTile<dim, gather_rows(dim, k, sizeof(Number) == 8, residual), gather_chunk(dim, k, sizeof(Number) == 8, residual),
                             gather_adjacent(dim, k, sizeof(Number) == 8), gather_threads(dim, k, sizeof(Number) == 8, residual)>;

// Number[N] aligned to its size (N = 1, 2, 4; at most 16 bytes): one vector load from shared memory.
template <typename Number, int N>
struct alignas(sizeof(Number) * N) Pack {
  Number v[N];
};

// residual: y = rhs - A x (a separate instantiation: a runtime test at the store cost the
// operator 3-7% at 2D float k = 1, 2), rounded to Out (the mixed full multigrid's float
// residuals of the double level solutions). corrected (the mixed Richardson step): x + c in
// place of x, c a float correction, each plane's sum formed where its copies land and stored
// to x_out at the owned points of the block's tile (x_out != x: other blocks read x's halo).
template <int dim, int k, typename Number, bool residual, typename Out = Number, bool squares = false, bool corrected = false>
__global__ void __launch_bounds__(GatherTile<dim, k, Number, residual>::threads, gather_min_blocks_per_sm(dim, k, sizeof(Number) == 8, corrected))
  laplace_gather_kernel(const Box box, const OperatorView<Number> op, const Number *__restrict__ x, const Number *__restrict__ rhs,
                        Out *__restrict__ y, double *partial, const float *__restrict__ c = nullptr, Number *__restrict__ x_out = nullptr)
{
  using Tile = GatherTile<dim, k, Number, residual>;
  constexpr int W = 2 * k + 1, C = (k + 1) * (k + 1), m = Tile::m, NT = Tile::threads, R = Tile::rows;
  constexpr bool ADJ = Tile::step == 1;
  // A stage of the ring holds a plane's halo tile: of the block, or (2D adjacent points,
  // tuning.hpp gather_warp_rings) of each warp, UX x SY values that the unit's UT threads
  // copy and read, so that a warp waits only for its own copies (__syncwarp), not for the block.
  constexpr bool WR = ADJ && gather_warp_rings(dim, k, sizeof(Number) == 8, residual);
  constexpr int UT = WR ? 32 : NT, NU = NT / UT;
  constexpr int UX = (WR ? UT * R : Tile::width) + 2 * k, SY = dim == 3 ? Tile::Y * R + 2 * k : 1, S = UX * SY, E = (S + UT - 1) / UT;
  // 2D adjacent points (Tile::step = 1): a thread's window of the plane, x positions R tx ..
  // R tx + W + R - 2 of its unit's halo tile, read as NV vectors of VE values (tuning.hpp,
  // gather_window_vector: each vector aligned); units padded to VE
  // values, which is where the last thread's rounded-up window ends (values never used).
  constexpr int VE = ADJ ? gather_window_vector(R, sizeof(Number)) : 1;
  constexpr int WN = W + R - 1, NV = (WN + VE - 1) / VE;
  constexpr int UP = ADJ ? (S + VE - 1) / VE * VE : S, SP = NU * UP;
  static_assert(!ADJ || R * (UT - 1) + NV * VE <= UP, "laplace_gather_kernel: the last window within its unit");
  constexpr int RR = dim == 3 ? R + 2 * k : R; // x sums a thread forms per plane (3D: halo rows)
  constexpr int RX = dim == 3 ? 1 : R, RY = dim == 3 ? R : 1; // distinct x, y coefficient rows
  constexpr int NZ = Tile::chunk + 4 * k;      // rows along m of the outputs l_begin - 2k .. l_end + 2k - 1
  // coefficients along m (tuning.hpp, gather_packed_z): the outputs' rows Mz, Kz, or per
  // plane t the pairs (M, K) of outputs l = p - k + c, c = 0..2k, in Zp[t][2c], Zp[t][2c + 1]
  constexpr bool PZ = gather_packed_z(dim, k, sizeof(Number) == 8, residual);
  constexpr int VZ = 16 / sizeof(Number), ZW = (2 * W + VZ - 1) / VZ * VZ, NP = Tile::chunk + 2 * k;
  // 3D, shared x sums (tuning.hpp, gather_shared_x_sums): every halo row's x sums formed once
  // per plane by the block, not by each of the (R + 2k) / R threads whose rows need it
  constexpr bool XS = dim == 3 && gather_shared_x_sums(k, sizeof(Number) == 8);
  using Cell = Number[C];
  using ZRows = Number[PZ ? 1 : NZ][W];
  using ZPacked = Number[PZ ? NP : 1][PZ ? ZW : 1];
  using XSums = Number[XS ? 2 : 1][XS ? SY : 1][XS ? Tile::X : 1];
  // The ring's stages: as many as the static shared memory (48 KB) holds beside the other
  // arrays where an override (-DVPATCH_GATHER_STAGES) asks for more or c's planes take room.
  constexpr int fixed = (int)(2 * sizeof(Cell) + 2 * sizeof(ZRows) + sizeof(ZPacked) + sizeof(XSums));
  constexpr int stage_bytes = (int)(sizeof(Number) + (corrected ? sizeof(float) : 0)) * SP; // x (and c) of a plane
  constexpr int D_asked = gather_stages(dim, k, sizeof(Number) == 8, residual, corrected), D_fit = (48 * 1024 - 64 - fixed) / stage_bytes;
  constexpr int D = D_asked < D_fit ? D_asked : D_fit;
  static_assert(D >= 2 && (VPATCH_GATHER_STAGES >= 0 || corrected || D == D_asked), "laplace_gather_kernel: the ring's stages in shared memory");
  __shared__ Cell Mc, Kc;
  __shared__ ZRows Mz, Kz;
  __shared__ __align__(16) ZPacked Zp;
  __shared__ __align__(16) Number ring_[D * SP];
  auto ring = [&](int stage) { return ring_ + stage * SP; };
  __shared__ float cring_[corrected ? D * SP : 1]; // c's planes beside x's
  auto cring = [&](int stage) { return cring_ + stage * SP; };
  static_assert(!corrected || residual, "laplace_gather_kernel: the corrected residual");
  __shared__ XSums xsum;
  const int tid = threadIdx.y * Tile::X + threadIdx.x;
  // squares: the residual's sum of squares (common.cuh; a residual of double inputs only)
  static_assert(!squares || (residual && std::is_same_v<Number, double> && NT % 32 == 0), "laplace_gather_kernel: the sum of squares of a residual");
  SquaresPart sq{partial};
  for (int e = tid; e < C; e += NT) {
    Mc[e] = op.mass[e];
    Kc[e] = op.stiffness[e];
  }
  const int t0 = Tile::origin0(), t1 = Tile::col1() - threadIdx.y * R; // tile origin (local array)
  const int unit = WR ? tid / UT : 0, ut = WR ? tid % UT : tid, u0 = t0 + unit * UT * R; // this thread's ring unit, its x origin
  const int i = box.gs[0] + Tile::col0(), j = box.gs[1] + Tile::col1();
  // This thread's elements of the halo tile: offset within a plane and bytes to copy (0
  // outside the local array: zero-filled).
  int off[E];
  unsigned bytes[E];
  bool mine[E]; // corrected: the element lies in this block's tile (its x + c is stored here)
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const int q = ut + e * UT, a = (WR ? u0 : t0) - k + q % UX, b = dim == 3 ? t1 - k + q / UX : 0;
    const bool inside = a >= 0 && a < box.gm[0] && (dim == 2 || (b >= 0 && b < box.gm[1]));
    off[e] = inside ? (int)column_offset<dim>(box.gm, a, b) : 0;
    bytes[e] = inside ? (unsigned)sizeof(Number) : 0u;
    const int ox = WR ? u0 : t0, nx = WR ? UT * R : Tile::width; // the unit's own points along x
    mine[e] = inside && q < S && a >= ox && a < ox + nx && (dim == 2 || (b >= t1 && b < t1 + Tile::Y * R));
  }
  const bool last_in_tile = ut + (E - 1) * UT < S; // the element e = E - 1 exists
  const long stride = plane_stride<dim>(box.gm);
  const int z0 = box.gs[m], z1 = z0 + box.gm[m];
  const int l_begin = z0 + Tile::chunk_index() * Tile::chunk, l_end = min(l_begin + Tile::chunk, z1);
  const int p_first = l_begin - k, np = l_end - l_begin + 2 * k; // planes read: l_begin - k .. l_end + k - 1
  auto issue = [&](int t) {                                        // plane p_first + t into stage t % D
    if (t < np) {
      const int p = p_first + t;
      const bool plane_in = p >= z0 && p < z1;
      const long plane = plane_in ? (long)(p - z0) * stride : 0;
      Number *dst = ring(t % D) + unit * UP + ut;
#pragma unroll
      for (int e = 0; e < E; ++e) {
        if (e == E - 1 && !last_in_tile) break;
        copy_async_or_zero(dst + e * UT, x + plane + off[e], plane_in ? bytes[e] : 0u);
        if constexpr (corrected) copy_async_or_zero(cring(t % D) + unit * UP + ut + e * UT, c + plane + off[e], plane_in && bytes[e] ? 4u : 0u);
      }
    }
    __pipeline_commit();
  };
  // corrected: plane t of the ring becomes x + c (each thread its own copies, landed), and
  // the block's owned points of its chunk's planes are stored to x_out
  auto correct_plane = [&](int t) {
    const int p = p_first + t;
    const bool store = p >= l_begin && p < l_end;
    const long plane = (long)(p - z0) * stride;
    Number *v = ring(t % D) + unit * UP + ut;
    const float *w = cring(t % D) + unit * UP + ut;
#pragma unroll
    for (int e = 0; e < E; ++e) {
      if (e == E - 1 && !last_in_tile) break;
      const Number s = v[e * UT] + (Number)w[e * UT];
      v[e * UT] = s;
      if (store && mine[e]) x_out[plane + off[e]] = s;
    }
  };
#pragma unroll
  for (int t = 0; t < D - 1; ++t) issue(t);
  __syncthreads(); // Mc, Kc
  for (int row = tid; row < NZ; row += NT) { // output l = p_first - k + row; zero outside this block's outputs (never stored)
    const int l = p_first - k + row;
    Number zrow[2][W];
    if (l >= l_begin && l < l_end) row_1d<k>(box, m, l, Mc, Kc, zrow[0], zrow[1]);
    else
      for (int c = 0; c < W; ++c) zrow[0][c] = zrow[1][c] = Number(0);
#pragma unroll
    for (int c = 0; c < W; ++c) {
      if constexpr (PZ) { // coefficient 2k - c of row l scatters plane t = row - c into output l
        if (row - c >= 0 && row - c < NP) {
          Zp[row - c][2 * c] = zrow[0][2 * k - c];
          Zp[row - c][2 * c + 1] = zrow[1][2 * k - c];
        }
      } else {
        Mz[row][c] = zrow[0][c];
        Kz[row][c] = zrow[1][c];
      }
    }
  } // read after the loop's first barrier (WR: after this one)
  if constexpr (WR) __syncthreads();
  Number Mx[RX][W], Kx[RX][W], My[RY][W], Ky[RY][W];
  bool in[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if constexpr (dim == 3) {
      row_1d<k>(box, 1, j + r, Mc, Kc, My[r], Ky[r]);
      in[r] = Tile::col0() < box.gm[0] && Tile::col1() + r < box.gm[1];
    } else {
      row_1d<k>(box, 0, i + r * Tile::step, Mc, Kc, Mx[r], Kx[r]);
      in[r] = Tile::col0() + r * Tile::step < box.gm[0];
    }
  }
  if constexpr (dim == 3) row_1d<k>(box, 0, i, Mc, Kc, Mx[0], Kx[0]);
  // acc[r][c]: partial output l = p - k + c of row r after plane p (c = 0: complete).
  Number acc[R][W];
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int c = 0; c < W; ++c) acc[r][c] = Number(0);
  const long col = column_offset<dim>(box.gm, Tile::col0(), Tile::col1());
  auto out_index = [&](int r, int l) { return col + (dim == 3 ? (long)r * box.gm[0] : r * Tile::step) + (long)(l - z0) * stride; };
  // The residual's b of output plane l (tuning.hpp, gather_early_rhs): loaded EB - 1 plane
  // iterations before the one that stores it (EB = 0: at the store), so that its latency
  // overlaps the planes' work. In iteration t, bq[e] holds the plane iteration t + e completes.
  constexpr int EB = residual ? gather_early_rhs(dim, k, sizeof(Number) == 8) : 0;
  static_assert(EB >= 0, "laplace_gather_kernel: a distance of early loads of b");
  Number bq[EB > 0 ? EB : 1][R];
  auto load_rhs = [&](Number(&dst)[R], int l) {
#pragma unroll
    for (int r = 0; r < R; ++r) dst[r] = in[r] && l >= l_begin && l < l_end ? rhs[out_index(r, l)] : Number(0);
  };
#pragma unroll
  for (int e = 0; e + 1 < EB; ++e) load_rhs(bq[e + 1], p_first - k + e);
  for (int t = 0; t < np; ++t) {
    if constexpr (EB > 0) {
#pragma unroll
      for (int e = 0; e + 1 < EB; ++e)
#pragma unroll
        for (int r = 0; r < R; ++r) bq[e][r] = bq[e + 1][r];
      load_rhs(bq[EB - 1], p_first + t + EB - 1 - k);
    }
    __pipeline_wait_prior(D - 2); // this thread's copies of plane t have landed
    if constexpr (corrected) correct_plane(t);
    if constexpr (WR) __syncwarp(); // the unit's; and stage (t - 1) % D is no longer read
    else __syncthreads();
    issue(t + D - 1);
    Number sm[RR], sk[RR]; // x sums: 3D of the halo rows this thread needs, 2D of its points
    if constexpr (XS) {
      // rows threadIdx.y + Y e of the plane's halo tile, all at this thread's column
#pragma unroll
      for (int e = 0; e < (SY + Tile::Y - 1) / Tile::Y; ++e) {
        const int row = threadIdx.y + Tile::Y * e;
        if (row < SY) {
          const Number *w = ring(t % D) + row * UX + threadIdx.x;
          xsum[0][row][threadIdx.x] = dot(Mx[0], w);
          xsum[1][row][threadIdx.x] = dot(Kx[0], w);
        }
      }
      __syncthreads(); // read before the next plane's first barrier
#pragma unroll
      for (int b = 0; b < RR; ++b) {
        sm[b] = xsum[0][threadIdx.y * R + b][threadIdx.x];
        sk[b] = xsum[1][threadIdx.y * R + b][threadIdx.x];
      }
    } else if constexpr (ADJ) {
      Number win[NV * VE];
      const auto *v = reinterpret_cast<const Pack<Number, VE> *>(ring(t % D) + (WR ? unit * UP + ut * R : threadIdx.x * R));
#pragma unroll
      for (int n = 0; n < NV; ++n) {
        const Pack<Number, VE> q = v[n];
#pragma unroll
        for (int e = 0; e < VE; ++e) win[n * VE + e] = q.v[e];
      }
#pragma unroll
      for (int b = 0; b < R; ++b) {
        sm[b] = dot(Mx[b], win + b);
        sk[b] = dot(Kx[b], win + b);
      }
    } else {
      const Number *v = ring(t % D) + threadIdx.y * R * UX + threadIdx.x;
#pragma unroll
      for (int b = 0; b < RR; ++b) {
        const int rx = dim == 3 ? 0 : b;
        sm[b] = dot(Mx[rx], v + (dim == 3 ? b * UX : b * Tile::X));
        sk[b] = dot(Kx[rx], v + (dim == 3 ? b * UX : b * Tile::X));
      }
    }
    // Coefficients of plane p = p_first + t in the outputs l = p - k + c: row l, column 2k - c.
    Number zm[W], zk[W];
    if constexpr (PZ) {
      const auto *zp = reinterpret_cast<const Pack<Number, VZ> *>(Zp[t]);
#pragma unroll
      for (int n = 0; n < ZW / VZ; ++n) {
        const Pack<Number, VZ> q = zp[n];
#pragma unroll
        for (int e = 0; e < VZ; ++e) {
          const int c = (n * VZ + e) / 2;
          if (c < W && (n * VZ + e) % 2) zk[c] = q.v[e];
          else if (c < W) zm[c] = q.v[e];
        }
      }
    } else {
#pragma unroll
      for (int c = 0; c < W; ++c) {
        zm[c] = Mz[t + c][2 * k - c];
        zk[c] = Kz[t + c][2 * k - c];
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      Number pm, pa;
      if constexpr (dim == 3) {
        pm = dot(My[r], sm + r);
        pa = fma(Ky[r][0], sm[r], dot(My[r], sk + r));
#pragma unroll
        for (int b = 1; b < W; ++b) pa = fma(Ky[r][b], sm[r + b], pa);
      } else {
        pm = sm[r];
        pa = sk[r];
      }
#pragma unroll
      for (int c = 0; c + 1 < W; ++c) acc[r][c] = fma(zk[c], pm, fma(zm[c], pa, acc[r][c + 1]));
      acc[r][W - 1] = fma(zk[W - 1], pm, zm[W - 1] * pa);
    }
    const int l = p_first + t - k; // complete output plane
    if (l >= l_begin) {
#pragma unroll
      for (int r = 0; r < R; ++r)
        if (in[r]) {
          const long o = out_index(r, l);
          Number v = acc[r][0];
          if constexpr (residual) v = (EB > 0 ? bq[0][r] : rhs[o]) - v;
          y[o] = static_cast<Out>(v);
          if constexpr (squares) sq.add(static_cast<Out>(v), dim == 3 ? !box.on_boundary(i, j + r, l) : !box.on_boundary(i + r * Tile::step, l, 0));
        }
    }
  }
  if constexpr (squares) sq.finish(ring_); // (every copy has landed: the last planes issued none)
}

// y = A x (b null) or y = b - A x, in Out: Number, or float from double where the
// operator is the gather or the cell-column kernel (laplace_residual_converts).
// sq (a residual of double inputs, in double or float, of the gather or the cell-column kernel;
// else null): the launch's blocks also sum the squares of their values (SquaresPart). c (with
// sq, the float residual of the gather only: laplace_residual_corrects): the residual of x + c,
// stored to x_out.
template <int dim, int k, typename Number, typename Out = Number>
void launch_laplace(const Box &box, OperatorView<Number> op, const Number *b, const Number *x, Out *y, cudaStream_t stream,
                    SquaresRequest *sq = nullptr, const float *c = nullptr, Number *x_out = nullptr)
{
  if (c && !(sq && x_out && std::is_same_v<Number, double> && std::is_same_v<Out, float> && gather_corrects(dim, k)))
    throw std::logic_error("vpatch cuda: a corrected residual other than the gather's float residual with its squares");
  // the form's kernel by cell columns where it is faster (tuning.hpp)
  auto by_columns = [&](auto residual) {
    constexpr bool r = decltype(residual)::value;
    if constexpr (cell_columns_operator(dim, k, sizeof(Number) == 8, r)) {
      if constexpr (dim == 3) launch_laplace_cell_columns_3d<k, Number, r, Out>(box, b, x, y, stream, sq);
      else if (sq) throw std::logic_error("vpatch cuda: the 2D cell-column operator sums no squares (tuning.hpp residual_squares_in_kernel)");
      else launch_laplace_cell_columns<k, Number, r, Out>(box, b, x, y, stream);
    }
    return cell_columns_operator(dim, k, sizeof(Number) == 8, r);
  };
  if (b ? by_columns(std::true_type{}) : by_columns(std::false_type{})) return;
  if constexpr (gather_operator(dim, k, sizeof(Number) == 8)) {
    auto launch = [&](auto residual) {
      constexpr bool r = decltype(residual)::value;
      using Tile = GatherTile<dim, k, Number, r>;
      const dim3 grid = Tile::grid(box.gm[0], box.gm[1], box.gm[Tile::m]);
      if constexpr (r && std::is_same_v<Number, double>)
        if (sq) {
          if constexpr (gather_corrects(dim, k) && std::is_same_v<Out, float>)
            if (c) {
              laplace_gather_kernel<dim, k, Number, r, Out, true, true><<<grid, Tile::block(), 0, stream>>>(box, op, x, b, y, sq->take(grid), c, x_out);
              return;
            }
          laplace_gather_kernel<dim, k, Number, r, Out, true><<<grid, Tile::block(), 0, stream>>>(box, op, x, b, y, sq->take(grid));
          return;
        }
      if (sq) throw std::logic_error("vpatch cuda: a sum of squares of a residual of float inputs");
      laplace_gather_kernel<dim, k, Number, r, Out><<<grid, Tile::block(), 0, stream>>>(box, op, x, b, y, nullptr);
    };
    if (b) launch(std::true_type{});
    else launch(std::false_type{});
    check_launch("laplace_apply (gather) kernel launch");
  } else if constexpr (!std::is_same_v<Out, Number>) {
    throw std::invalid_argument("vpatch cuda: the cell operator (atomics) writes its own precision only");
  } else {
    using Plan = CellPlan<dim, k, Number>;
    const std::size_t bytes = sizeof(Number) * (std::size_t)box.local_points();
    if (b) VPATCH_CUDA_CHECK(cudaMemcpyAsync(y, b, bytes, cudaMemcpyDeviceToDevice, stream));
    else VPATCH_CUDA_CHECK(cudaMemsetAsync(y, 0, bytes, stream));
    const CellRange cr = owned_cells(box);
    if (cr.ncells <= 0) return;
    check_cell_range(cr, "laplace_apply");
    static int configured = -1;
    auto kernel = laplace_kernel<dim, k, Number>;
    prepare_shared(kernel, Plan::smem, "laplace_apply", configured);
    const long blocks = (cr.ncells + Plan::C - 1) / Plan::C;
    // reference: the level's cell matrices are h M^, K^ / h with h = 1 / cells (core/element1d.hpp, Level1D);
    // negated for the residual
    const Number op_scale = (Number)((Plan::reference ? std::pow(1.0 / box.cells, dim - 2) : 1.0) * (b ? -1 : 1));
    kernel<<<(unsigned)blocks, Plan::T * Plan::C, Plan::smem, stream>>>(box, op, cr, x, y, op_scale);
    check_launch("laplace_apply kernel launch");
  }
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
    detail::launch_laplace<decltype(d)::value, decltype(k)::value, Number>(box, op, nullptr, x, y, detail::to_stream(stream));
  });
}

template <typename Number, typename Out>
void laplace_residual(const Box &box, OperatorView<Number> op, const Number *b, const Number *x, Out *y, void *stream)
{
  dispatch(box.dim, box.degree, [&](auto d, auto k) {
    detail::launch_laplace<decltype(d)::value, decltype(k)::value, Number, Out>(box, op, b, x, y, detail::to_stream(stream));
  });
}

bool laplace_residual_converts(int dim, int degree)
{
  return gather_operator(dim, degree, true) || cell_columns_operator(dim, degree, true, true);
}

bool laplace_residual_corrects(int dim, int degree) { return gather_corrects(dim, degree); }
bool laplace_residual_corrects_faster(int dim, int degree) { return corrected_residual(dim, degree); }

template <typename Out>
double laplace_residual_sum_squares(const Box &box, OperatorView<double> op, const double *b, const double *x, Out *r, void *stream,
                                    const float *c, double *x_out)
{
  if (!laplace_residual_converts((int)box.dim, (int)box.degree))
    throw std::invalid_argument("vpatch cuda: laplace_residual_sum_squares: this operator forms its residual and the sum in two passes");
  if (c && (!std::is_same_v<Out, float> || !x_out || x_out == x || !laplace_residual_corrects((int)box.dim, (int)box.degree)))
    throw std::invalid_argument("vpatch cuda: laplace_residual_sum_squares: a correction needs the gather kernel, a float residual and x_out apart from x");
  if (!box.local_is_owned()) throw std::invalid_argument("vpatch cuda: laplace_residual_sum_squares: a box with ghost points");
  if (box.owned_points() <= 0) return 0;
  double sum = 0;
  dispatch(box.dim, box.degree, [&](auto d, auto k) {
    constexpr int D = decltype(d)::value, K = decltype(k)::value;
    if constexpr (residual_squares_in_kernel(D, K)) {
      detail::SquaresRequest sq{stream, residual_boundary_blocks(box)};
      detail::launch_laplace<D, K, double, Out>(box, op, b, x, r, detail::to_stream(stream), &sq, c, x_out);
      if (!sq.partial) throw std::logic_error("vpatch cuda: laplace_residual_sum_squares: no launch summed the squares");
      residual_boundary(box, b, c ? x_out : x, r, sq.partial + sq.blocks, stream);
      sum = sum_block_partials((std::size_t)(sq.blocks + sq.extra), stream);
    } else { // a pass over r after it (tuning.hpp)
      detail::launch_laplace<D, K, double, Out>(box, op, b, x, r, detail::to_stream(stream));
      residual_boundary<double, Out>(box, b, x, r, stream);
      sum = sum_squares((std::size_t)box.owned_points(), r, stream);
    }
  });
  return sum;
}
template double laplace_residual_sum_squares<float>(const Box &, OperatorView<double>, const double *, const double *, float *, void *, const float *,
                                                    double *);
template double laplace_residual_sum_squares<double>(const Box &, OperatorView<double>, const double *, const double *, double *, void *,
                                                     const float *, double *);

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
template void laplace_residual<float>(const Box &, OperatorView<float>, const float *, const float *, float *, void *);
template void laplace_residual<double>(const Box &, OperatorView<double>, const double *, const double *, double *, void *);
template void laplace_residual<double, float>(const Box &, OperatorView<double>, const double *, const double *, float *, void *);
template void laplace_diagonal<float>(const Box &, OperatorView<float>, float *, void *);
template void laplace_diagonal<double>(const Box &, OperatorView<double>, double *, void *);

} // namespace cuda
} // namespace vpatch
