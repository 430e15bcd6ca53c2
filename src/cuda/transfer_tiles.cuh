// 3D grid transfers by tiles of coarse cells marching along z: a thread block owns CX x CY
// coarse cells in x, y and walks a chunk of cells along z, so each fine value is read
// (restriction) or read and written (prolongation) once, in rows of about 32 points, and
// the coarse values once per tile, with sum factorization through shared memory along x
// and y and registers along z. The 1D rule of both directions is cpu::prolongate's: fine
// point f belongs to the coarse cell c (transfer_rows: f in [2kc, 2kc + 2k), the domain's
// last fine point being a boundary point) and takes the coarse points kc + j, j = 0..k,
// with weight P[f - 2kc][j]; a tile's fine points are exactly those of its cells.
// Prolongation: per coarse cell along z, the cell's fine values (O) and its k new coarse
// planes (k + 1 for a chunk's first; C) go to shared memory by asynchronous copies, the
// coarse planes are interpolated along x (U) and then along y into the thread's window of
// k + 1 plane values per fine column, from which the cell's 2k fine planes are updated.
// Restriction: per group of G of a cell's 2k fine planes, the planes go to shared memory
// (F), are restricted along x (V), then along y and z into the thread's k + 1 coarse-plane
// accumulators per coarse column, which are added to the coarse values by atomic
// reductions (tiles and chunks share their edge points; a reduction does not stall the
// thread as a load-add-store does). The x and y weights of a thread's points are held in
// registers (read from P in shared memory, double k = 2, 3 ran 12-16% slower). Where
// tuning.hpp's transfer_tile_prefetch says so, the copies of the next step (cell, group)
// go to a second buffer while this step's are used (cp.async groups), so a step no longer
// waits for its own copies.
#pragma once
#include "common.cuh"
#include "reference_transfer.cuh"
#include "tuning.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

// Entry i of P for the z direction, where every thread takes the same: compiled in where
// reference_tables.hpp has it (k >= 2), from shared memory else.
template <int k, typename Number>
__device__ __forceinline__ Number z_weight(const Number *Ps, int i)
{
  if constexpr (k >= reference::transfer_degree_min) return reference_transfer<k, Number>.P[i];
  else return Ps[i];
}

template <int k, typename Number>
struct TileShape {
  static constexpr int nb = k + 1, np = 2 * k + 1, T = 256;
  static constexpr int CX = transfer_tile_cells_x(k, sizeof(Number) == 8), CY = transfer_tile_cells_y(k, sizeof(Number) == 8),
                       ZC = transfer_tile_chunk(k);
  static constexpr int FX = 2 * k * CX, FY = 2 * k * CY;   // fine points of a tile plane
  static constexpr int NX = k * CX + 1, NY = k * CY + 1;   // coarse points of a tile plane
  static constexpr int fine_per_thread = (FX * FY + T - 1) / T;
  static constexpr int coarse_per_thread = (NX * NY + T - 1) / T;
  static constexpr int mats = (np * nb + 1) / 2 * 2; // P in shared memory (z weights, k = 1), 16-byte aligned after it
  // Fine planes per restriction step: the largest divisor of 2k whose F and V take at most 32 KiB.
  static constexpr int group()
  {
    int g = 1;
    for (int d = 1; d <= 2 * k; ++d)
      if ((2 * k) % d == 0 && (std::size_t)d * FY * (FX + NX) * sizeof(Number) <= 32 * 1024) g = d;
    return g;
  }
  static constexpr int G = group();
  static constexpr bool async = async_gathers(3, k);
  // Pipelined steps (tuning.hpp, transfer_tile_prefetch; two buffers of the copied planes):
  // the restriction's, and the prolongation's where it adds (overwriting, it copies the coarse
  // planes only, and ran slower with them pipelined).
  static constexpr bool PP = async && transfer_tile_prefetch(k, sizeof(Number) == 8, false);
  static constexpr bool PR = async && transfer_tile_prefetch(k, sizeof(Number) == 8, true);
  static constexpr int C_plane = nb * NY * NX, O_cell = 2 * k * FY * FX, F_group = G * FY * FX; // one buffer each
  template <bool Add>
  static constexpr bool prefetch_p = Add && PP;
  template <bool Add> // (overwriting, no fine values are copied: no O)
  static constexpr std::size_t p_smem = sizeof(Number) * (std::size_t)(mats + (prefetch_p<Add> ? 2 : 1) * C_plane + nb * NY * FX +
                                                                       (Add ? (prefetch_p<Add> ? 2 : 1) * O_cell : 0));
  static constexpr std::size_t r_smem = sizeof(Number) * (std::size_t)(mats + (PR ? 2 : 1) * F_group + G * FY * NX);
};

// N weights w[i] = P[first + i Stride] of one point's contraction, held in registers (P
// row-major (2k+1) x (k+1): Stride 1 runs over the coarse points of fine row `first`,
// Stride k + 1 over the fine points of coarse column `first`; zeros where not `present`).
template <int N, int Stride, typename Number>
struct Weights {
  Number w[N];
  __device__ __forceinline__ void set(const Number *__restrict__ P, int first, bool present)
  {
#pragma unroll
    for (int i = 0; i < N; ++i) w[i] = present ? P[first + i * Stride] : Number(0);
  }
};

// This block's tile: coarse cells [c0[d], c0[d] + n[d]) along x, y and [c0[2], c1z) along z.
struct Tile {
  int c0[3], n[2], c1z;
};
template <int CX, int CY, int ZC>
__device__ __forceinline__ Tile tile_of(const Box &coarse)
{
  Tile t;
  t.c0[0] = coarse.cs[0] + blockIdx.x * CX;
  t.c0[1] = coarse.cs[1] + blockIdx.y * CY;
  t.c0[2] = coarse.cs[2] + blockIdx.z * ZC;
  t.n[0] = min(CX, coarse.ce[0] - t.c0[0]);
  t.n[1] = min(CY, coarse.ce[1] - t.c0[1]);
  t.c1z = min(t.c0[2] + ZC, coarse.ce[2]);
  return t;
}

// The tile's coarse (prolongation) or fine (restriction) columns that thread tid gathers,
// the points p = tid, tid + T, ... of an E0 x E1 plane: where their first value lies in the
// source array, or -1 where the column is not read (outside the tile's cells or on the
// domain boundary along x or y). The z loop adds the plane stride.
template <int N, int T, int E0, int E1, typename Index>
__device__ __forceinline__ void gather_columns(int tid, long (&src)[N], Index index)
{
#pragma unroll
  for (int m = 0; m < N; ++m) {
    const int p = tid + m * T;
    src[m] = p < E0 * E1 ? index(p % E0, p / E0) : -1;
  }
}

// The restriction's weights of coarse point x along one direction, whose tile cells (one,
// or two at a vertex) are c0..c1: cell c's fine points 2kc + a take P[a][x - kc]; and the
// offset of each cell's first fine point (stride apart); an absent second cell weighs zero.
template <int k, typename Number>
struct Taps {
  Weights<2 * k, k + 1, Number> w[2];
  int first[2];
  __device__ __forceinline__ void set(const Number *__restrict__ P, int x, int cells, int stride)
  {
    const int c0 = max(0, (x + k - 1) / k - 1), c1 = min(cells - 1, x / k);
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      const int c = c0 + s;
      const bool present = c <= c1;
      first[s] = 2 * k * (present ? c : c0) * stride;
      w[s].set(P, present ? x - k * c : 0, present);
    }
  }
  // sum over the cells' fine points of v[first + a * stride]
  __device__ __forceinline__ Number apply(const Number *v, int stride) const
  {
    Number r = 0;
#pragma unroll
    for (int s = 0; s < 2; ++s)
#pragma unroll
      for (int a = 0; a < 2 * k; ++a) r += w[s].w[a] * v[first[s] + a * stride];
    return r;
  }
};

// The copies of a tile's steps (prolongation: coarse cells; restriction: groups of fine
// planes) into buffer b of shared memory, copy(step, b). Pipelined (tuning.hpp,
// transfer_tile_prefetch), the first step's copies are issued before the loop
// (first_step_copies) and at the top of each step the next step's go to the other buffer
// before this step's are waited for; else each step copies into buffer 0 and waits. A
// __syncthreads() must follow step_copies before other threads read the copies.
template <bool Pipelined, typename Copy>
__device__ __forceinline__ void first_step_copies(const Copy &copy, int step)
{
  if constexpr (Pipelined) {
    copy(step, 0);
    commit_copies();
  }
}
template <bool Pipelined, bool Async, typename Copy>
__device__ __forceinline__ void step_copies(const Copy &copy, int step, int next, bool has_next, int b)
{
  if constexpr (Pipelined) {
    if (has_next) {
      copy(next, b ^ 1);
      commit_copies();
      wait_copies_but<1>();
    } else {
      wait_copies_but<0>();
    }
  } else {
    copy(step, 0);
    wait_copies<Async>();
  }
}

template <int k, typename Number, bool add>
__global__ void __launch_bounds__(TileShape<k, Number>::T)
  prolongate_tile_kernel(const Box coarse, const Box fine, const Number *__restrict__ Pm, const Number *__restrict__ xc, Number *__restrict__ xf)
{
  using S = TileShape<k, Number>;
  constexpr bool PP = S::template prefetch_p<add>;
  constexpr int nb = S::nb, np = S::np, T = S::T, FX = S::FX, FY = S::FY, NX = S::NX, NY = S::NY, NF = S::fine_per_thread;
  constexpr int NG = (NX * NY + T - 1) / T, NU = (NY * FX + T - 1) / T; // coarse columns, x interpolations per thread
  Number *Ps = shared_base<Number>(), *C = Ps + S::mats, *U = C + (PP ? 2 : 1) * S::C_plane, *O = U + nb * NY * FX;
  const int tid = threadIdx.x;
  for (int i = tid; i < np * nb; i += T) Ps[i] = Pm[i];
  const Tile tile = tile_of<S::CX, S::CY, S::ZC>(coarse);
  const int nx = k * tile.n[0], ny = k * tile.n[1];
  long src[NG]; // coarse columns (boundary values count as zero)
  gather_columns<NG, T, NX, NY>(tid, src, [&](int x, int y) -> long {
    const int I = k * tile.c0[0] + x, J = k * tile.c0[1] + y;
    return x <= nx && y <= ny && !coarse.on_boundary_1d(I) && !coarse.on_boundary_1d(J) ? coarse.local_index(I, J, k * tile.c0[2]) : -1;
  });
  // x interpolations: U row y, fine column fx from C row y, coarse points k c(fx) + j
  int cu[NU];
  Weights<nb, 1, Number> wx[NU];
#pragma unroll
  for (int m = 0; m < NU; ++m) {
    const int p = min(tid + m * T, NY * FX - 1), fx = p % FX;
    cu[m] = (p / FX) * NX + k * (fx / (2 * k));
    wx[m].set(Pm, (fx % (2 * k)) * nb, true);
  }
  // The thread's fine columns: where they start in the owned array (the chunk's first
  // plane), their column of U and their weights along y.
  long out[NF];
  int ucol[NF];
  bool write[NF];
  Weights<nb, 1, Number> wy[NF];
#pragma unroll
  for (int r = 0; r < NF; ++r) {
    const int p = tid + r * T, fx = p % FX, fy = p / FX, i = 2 * k * tile.c0[0] + fx, j = 2 * k * tile.c0[1] + fy;
    write[r] = p < FX * FY && fx < 2 * k * tile.n[0] && fy < 2 * k * tile.n[1] && !fine.on_boundary_1d(i) && !fine.on_boundary_1d(j);
    out[r] = write[r] ? fine.owned_index(i, j, 2 * k * tile.c0[2]) : 0;
    ucol[r] = write[r] ? (fy / (2 * k)) * k * FX + fx : 0;
    wy[r].set(Pm, (fy % (2 * k)) * nb, true);
  }
  const long fs = (long)fine.om[0] * fine.om[1], cs = (long)coarse.gm[0] * coarse.gm[1];
  // Coarse cell cz's copies into buffer b: its fine values (each thread reads back its own;
  // none where it overwrites) and its new coarse planes (plane k cz is in the window but at
  // the chunk's first cell).
  auto copy_cell = [&](int cz, int b) {
    Number *Ob = O + b * S::O_cell, *Cb = C + b * S::C_plane;
    if constexpr (add) {
#pragma unroll
      for (int r = 0; r < NF; ++r) {
        if (!write[r]) continue;
        const long o = out[r] + (long)(cz - tile.c0[2]) * 2 * k * fs;
#pragma unroll
        for (int a = 0; a < 2 * k; ++a) copy_or_zero<S::async>(Ob + a * FY * FX + tid + r * T, xf, o + a * fs, cz > 0 || a > 0);
      }
    }
#pragma unroll
    for (int q = 0; q < nb; ++q) {
      if (q < (cz == tile.c0[2] ? 0 : 1)) continue;
      const int K = k * cz + q;
#pragma unroll
      for (int m = 0; m < NG; ++m)
        if (tid + m * T < NX * NY)
          copy_or_zero<S::async>(Cb + q * NY * NX + tid + m * T, xc, src[m] + (long)(K - k * tile.c0[2]) * cs, src[m] >= 0 && !coarse.on_boundary_1d(K));
    }
  };
  Number s[NF][nb];
  first_step_copies<PP>(copy_cell, tile.c0[2]);
  __syncthreads(); // Ps
  for (int cz = tile.c0[2]; cz < tile.c1z; ++cz) {
    const int q0 = cz == tile.c0[2] ? 0 : 1, b = PP ? (cz - tile.c0[2]) & 1 : 0;
    step_copies<PP, S::async>(copy_cell, cz, cz + 1, cz + 1 < tile.c1z, b);
    __syncthreads();
    const Number *Cb = C + b * S::C_plane, *Ob = O + b * S::O_cell;
#pragma unroll
    for (int q = 0; q < nb; ++q) { // along x
      if (q < q0) continue;
#pragma unroll
      for (int m = 0; m < NU; ++m) {
        if (tid + m * T >= NY * FX) continue;
        const Number *row = Cb + q * NY * NX + cu[m];
        Number v = 0;
#pragma unroll
        for (int j = 0; j < nb; ++j) v += wx[m].w[j] * row[j];
        U[q * NY * FX + tid + m * T] = v;
      }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < NF; ++r) { // along y into the window, then along z: the cell's fine planes
      if (!write[r]) continue;
      if (q0) s[r][0] = s[r][k];
#pragma unroll
      for (int q = 0; q < nb; ++q) {
        if (q < q0) continue;
        const Number *col = U + q * NY * FX + ucol[r];
        Number v = 0;
#pragma unroll
        for (int j = 0; j < nb; ++j) v += wy[r].w[j] * col[j * FX];
        s[r][q] = v;
      }
      Number *o = xf + out[r] + (long)(cz - tile.c0[2]) * 2 * k * fs;
#pragma unroll
      for (int a = 0; a < 2 * k; ++a) {
        Number v = Number(0);
        if constexpr (add) v = Ob[a * FY * FX + tid + r * T];
#pragma unroll
        for (int j = 0; j < nb; ++j) v += z_weight<k>(Ps, a * nb + j) * s[r][j];
        if (cz > 0 || a > 0) o[a * fs] = v; // fine plane 0 lies on the boundary
      }
    }
  }
}

template <int k, typename Number>
__global__ void __launch_bounds__(TileShape<k, Number>::T)
  restrict_tile_kernel(const Box coarse, const Box fine, const Number *__restrict__ Pm, const Number *__restrict__ xf, Number *__restrict__ xc)
{
  using S = TileShape<k, Number>;
  constexpr int nb = S::nb, np = S::np, T = S::T, FX = S::FX, FY = S::FY, NX = S::NX, NY = S::NY, NC = S::coarse_per_thread, G = S::G;
  constexpr int NG = (FX * FY + T - 1) / T, NV = (FY * NX + T - 1) / T; // fine columns, x restrictions per thread
  Number *Ps = shared_base<Number>(), *F = Ps + S::mats, *V = F + (S::PR ? 2 : 1) * S::F_group;
  const int tid = threadIdx.x;
  for (int i = tid; i < np * nb; i += T) Ps[i] = Pm[i];
  const Tile tile = tile_of<S::CX, S::CY, S::ZC>(coarse);
  const int nx = k * tile.n[0], ny = k * tile.n[1], fnx = 2 * k * tile.n[0], fny = 2 * k * tile.n[1];
  long src[NG]; // fine columns (boundary values count as zero)
  gather_columns<NG, T, FX, FY>(tid, src, [&](int fx, int fy) -> long {
    const int i = 2 * k * tile.c0[0] + fx, j = 2 * k * tile.c0[1] + fy;
    return fx < fnx && fy < fny && !fine.on_boundary_1d(i) && !fine.on_boundary_1d(j) ? fine.owned_index(i, j, 2 * k * tile.c0[2]) : -1;
  });
  // x restrictions: V row fy, coarse column x from F row fy
  int fv[NV];
  Taps<k, Number> tx[NV];
#pragma unroll
  for (int m = 0; m < NV; ++m) {
    const int p = min(tid + m * T, FY * NX - 1), x = p % NX;
    fv[m] = (p / NX) * FX;
    tx[m].set(Pm, x <= nx ? x : -k - 1, tile.n[0], 1); // no cells (zero weights) beyond the tile's
  }
  // The thread's coarse columns: where they start in the local array (the chunk's first
  // plane) and their taps along y.
  long out[NC];
  int X[NC];
  bool valid[NC];
  Taps<k, Number> ty[NC];
#pragma unroll
  for (int r = 0; r < NC; ++r) {
    const int p = tid + r * T;
    X[r] = p % NX;
    const int Y = p / NX;
    valid[r] = p < NX * NY && X[r] <= nx && Y <= ny;
    out[r] = valid[r] ? coarse.local_index(k * tile.c0[0] + X[r], k * tile.c0[1] + Y, k * tile.c0[2]) : 0;
    ty[r].set(Pm, valid[r] ? Y : -k - 1, tile.n[1], NX);
  }
  const long fs = (long)fine.om[0] * fine.om[1], cs = (long)coarse.gm[0] * coarse.gm[1];
  Number acc[NC][nb];
#pragma unroll
  for (int r = 0; r < NC; ++r)
#pragma unroll
    for (int j = 0; j < nb; ++j) acc[r][j] = 0;
  // Fine planes l0 .. l0 + G - 1 copied into buffer b (boundary values count as zero).
  auto copy_group = [&](int l0, int b) {
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const int l = l0 + g;
#pragma unroll
      for (int m = 0; m < NG; ++m)
        if (tid + m * T < FX * FY)
          copy_or_zero<S::async>(F + b * S::F_group + g * FY * FX + tid + m * T, xf, src[m] + (long)(l - 2 * k * tile.c0[2]) * fs, src[m] >= 0 && l > 0);
    }
  };
  first_step_copies<S::PR>(copy_group, 2 * k * tile.c0[2]);
  for (int cz = tile.c0[2]; cz < tile.c1z; ++cz) {
#pragma unroll
    for (int g0 = 0; g0 < 2 * k; g0 += G) {
      const int l0 = 2 * k * cz + g0, b = S::PR ? ((l0 - 2 * k * tile.c0[2]) / G) & 1 : 0; // this step's buffer
      step_copies<S::PR, S::async>(copy_group, l0, l0 + G, l0 + G < 2 * k * tile.c1z, b);
      __syncthreads();
      const Number *Fb = F + b * S::F_group;
#pragma unroll
      for (int g = 0; g < G; ++g) // along x
#pragma unroll
        for (int m = 0; m < NV; ++m)
          if (tid + m * T < FY * NX) V[g * FY * NX + tid + m * T] = tx[m].apply(Fb + g * FY * FX + fv[m], 1);
      __syncthreads();
#pragma unroll
      for (int r = 0; r < NC; ++r) { // along y, then z into the accumulators
        if (!valid[r]) continue;
#pragma unroll
        for (int g = 0; g < G; ++g) {
          const Number v = ty[r].apply(V + g * FY * NX + X[r], NX);
#pragma unroll
          for (int j = 0; j < nb; ++j) acc[r][j] += z_weight<k>(Ps, (g0 + g) * nb + j) * v;
        }
      }
    }
    // Coarse planes k cz .. k cz + k - 1 are complete; k cz + k goes on with the next cell.
#pragma unroll
    for (int r = 0; r < NC; ++r) {
      if (!valid[r]) continue;
      Number *o = xc + out[r] + (long)k * (cz - tile.c0[2]) * cs;
#pragma unroll
      for (int j = 0; j < k; ++j) atomicAdd(o + j * cs, acc[r][j]); // no return value: a reduction the thread does not wait for
      acc[r][0] = acc[r][k];
#pragma unroll
      for (int j = 1; j < nb; ++j) acc[r][j] = 0;
    }
  }
#pragma unroll
  for (int r = 0; r < NC; ++r)
    if (valid[r]) atomicAdd(xc + out[r] + (long)k * (tile.c1z - tile.c0[2]) * cs, acc[r][0]);
}

template <int k, typename Number>
void launch_transfer_tiles(bool restrict_, const Box &coarse, const Box &fine, TransferView<Number> tv, const Number *in, Number *out,
                           cudaStream_t stream, bool add)
{
  using S = TileShape<k, Number>;
  long n[3];
  for (int d = 0; d < 3; ++d) n[d] = coarse.ce[d] > coarse.cs[d] ? coarse.ce[d] - coarse.cs[d] : 0;
  if (!n[0] || !n[1] || !n[2]) return;
  const dim3 grid((unsigned)((n[0] + S::CX - 1) / S::CX), (unsigned)((n[1] + S::CY - 1) / S::CY), (unsigned)((n[2] + S::ZC - 1) / S::ZC));
  if (grid.y > 65535u || grid.z > 65535u) throw std::invalid_argument("vpatch cuda: transfer tiles: more than 65535 blocks along y or z");
  auto launch = [&](auto kernel, std::size_t smem, const char *name, int &configured) {
    prepare_shared(kernel, smem, name, configured);
    kernel<<<grid, S::T, smem, stream>>>(coarse, fine, tv.prolongation, in, out);
    check_launch(name);
  };
  if (restrict_) {
    static int configured = -1;
    launch(restrict_tile_kernel<k, Number>, S::r_smem, "restrict_add (tiles)", configured);
  } else if (add) {
    static int configured = -1;
    launch(prolongate_tile_kernel<k, Number, true>, S::template p_smem<true>, "prolongate (tiles)", configured);
  } else {
    static int configured = -1;
    launch(prolongate_tile_kernel<k, Number, false>, S::template p_smem<false>, "prolongate (tiles, overwriting)", configured);
  }
}

} // namespace detail
} // namespace cuda
} // namespace vpatch
