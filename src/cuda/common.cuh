// Private device helpers of the CUDA kernels: error checks, launch setup and the
// sum-factorization contraction on shared-memory tensors (paper section 4.1, Listing 2).
#pragma once
#include "../core/layout.hpp"
#include "../core/level_tables.hpp"
#include "../core/patch_band.hpp"
#include "divider.hpp"
#include "kernels_cuda.hpp"
#include "lanes.cuh"
#include "vector_ops_cuda.hpp"
#include <cuda_runtime.h>
#include <stdexcept>
#include <algorithm>
#include <string>
#include <type_traits>

namespace vpatch {
namespace cuda {
namespace detail {

inline void check(cudaError_t e, const char *what)
{
  if (e != cudaSuccess) throw std::runtime_error(std::string("vpatch cuda: ") + what + ": " + cudaGetErrorString(e));
}
#define VPATCH_CUDA_CHECK(call) ::vpatch::cuda::detail::check((call), #call)
// After a kernel launch: launch-configuration errors and sticky errors of earlier work.
inline void check_launch(const char *kernel) { check(cudaGetLastError(), kernel); }

inline cudaStream_t to_stream(void *s) { return static_cast<cudaStream_t>(s); }

inline int device_attribute(cudaDeviceAttr attr)
{
  int dev = 0, v = 0;
  VPATCH_CUDA_CHECK(cudaGetDevice(&dev));
  VPATCH_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, dev));
  return v;
}

// Allow a kernel to use `bytes` of dynamic shared memory (opt-in above 48 KiB); throws a
// clear error where the device has less per block than the kernel needs.
// `configured_bytes` is the caller's per-kernel cache (a function-local static).
template <typename Kernel>
inline void prepare_shared(Kernel kernel, std::size_t bytes, const char *name, int &configured_bytes)
{
  if ((long)bytes <= configured_bytes) return;
  const int limit = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  if (bytes > (std::size_t)limit)
    throw std::invalid_argument(std::string("vpatch cuda: ") + name + " needs " + std::to_string(bytes) +
                                " bytes of shared memory per block, the device allows " + std::to_string(limit) +
                                " (degree too high for this dimension/precision/kernel variant)");
  if (bytes > 48 * 1024)
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes), name);
  configured_bytes = (int)bytes;
}

// Shared-memory input tensors of the 3D kernels are gathered with cp.async (global to
// shared without a register; tuning.hpp, async_gathers): a thread's copies are all in
// flight at once, where a load-then-store loop waits for each load in turn (the smoother's
// closure loop held 72% of its long-scoreboard stalls at 3D k = 3, float). `bytes` = 0
// fills *dst with zeros without reading src.
template <typename Number>
__device__ __forceinline__ void copy_async_or_zero(Number *dst, const Number *src, unsigned bytes)
{
  const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src), "n"((int)sizeof(Number)), "r"(bytes) : "memory");
}
// *dst = src[index] where `load`, else 0 (src[index] is not read then): by cp.async
// (Async) or a load and a store. wait_copies<Async>() waits for this thread's copies; a
// __syncthreads() must follow before other threads read them. The asynchronous copy takes
// src + index either way (its zero fill reads nothing), which saves selecting an address.
template <bool Async, typename Number>
__device__ __forceinline__ void copy_or_zero(Number *dst, const Number *src, long index, bool load)
{
  if constexpr (Async) copy_async_or_zero(dst, src + index, load ? (unsigned)sizeof(Number) : 0u);
  else *dst = load ? src[index] : Number(0);
}
template <bool Async>
__device__ __forceinline__ void wait_copies()
{
  if constexpr (Async) asm volatile("cp.async.wait_all;\n" ::: "memory");
}
// Pipelined copies (cp.async only): commit_copies() closes the group of this thread's copies
// issued since the last commit; wait_copies_but<N>() waits until at most the N groups
// committed last are still in flight (N = 1: all but the group just issued for the next step).
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wait_copies_but()
{
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Gathers an N0 x N1 x NZ box (x fastest) of src into dst with the T threads of a group:
// thread t takes the points (x, y) = t, t + T, ... of the plane and walks their z column
// (source index base + x + y sy + z sz), copying where column(x, y)(z), zero elsewhere
// (column evaluates what depends on x, y once per column and returns the test of z). One
// address increment per copy, where a loop over the box's linear index spent about 20
// instructions on each (two divisions, a boundary test per point): the 3D k = 3 float
// smoother +24%. Ends with wait_copies<Async>() unless Wait = false (the caller waits after
// work of its own); a __syncthreads() must follow. Point (x, y, z) lands at dst[(x + y DY + z DZ) EW]
// (compact by default; EW = 2: one lane of a tensor of patch pairs, lanes.cuh).
template <bool Async, int N0, int N1, int NZ, int T, bool Wait = true, int DY = N0, int DZ = N0 * N1, int EW = 1, typename Number,
          typename Column>
__device__ __forceinline__ void gather_box(int t, Number *dst, const Number *src, long base, long sy, long sz, Column column)
{
  for (int p = t; p < N0 * N1; p += T) {
    const int x = p % N0, y = p / N0;
    const long s = base + x + y * sy;
    const auto load = column(x, y);
    const int o = DY == N0 ? p : x + y * DY;
#pragma unroll
    for (int z = 0; z < NZ; ++z) copy_or_zero<Async>(dst + (o + z * DZ) * EW, src, s + z * sz, load(z));
  }
  if constexpr (Wait) wait_copies<Async>();
}

// The same N0 x N1 x NZ box (x fastest) of W sources gathered into elements of W lanes
// (lanes.cuh: the patches of a pair) through registers: load() issues every load of a
// thread (thread t takes the points (x, y) = t, t + T, ... of the plane and walks their z
// column, source index base[w] + x + y sy + z sz of lane w, zero where column(w, x, y)(z)
// is false), other work may follow, then store() writes one W-lane element per point,
// point (x, y, z) at dst[index(x, y, z)]. Where gather_box copies without cp.async, its
// loads wait on the stores before them; a float pair then also costs two 4-byte stores into
// every other bank word where this takes one 8-byte store (tuning.hpp, register_gathers).
// A __syncthreads() must follow store().
template <int N0, int N1, int NZ, int T, int W, typename Number>
struct RegisterGather {
  static constexpr int rounds = (N0 * N1 + T - 1) / T;
  static constexpr bool inside(int r, int p) { return r + 1 < rounds || (N0 * N1) % T == 0 || p < N0 * N1; }
  Number v[rounds][NZ][W];
  template <typename Column>
  __device__ __forceinline__ void load(int t, const Number *src, const long (&base)[W], long sy, long sz, Column column)
  {
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const int p = t + r * T, x = p % N0, y = p / N0;
#pragma unroll
      for (int w = 0; w < W; ++w) {
        const auto load = column(w, x, y);
        const Number *s = src + base[w] + x + y * sy;
#pragma unroll
        for (int z = 0; z < NZ; ++z) v[r][z][w] = inside(r, p) && load(z) ? s[z * sz] : Number(0);
      }
    }
  }
  template <typename Elem, typename Index>
  __device__ __forceinline__ void store(int t, Elem *dst, Index index) const
  {
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const int p = t + r * T, x = p % N0, y = p / N0;
      if (inside(r, p))
#pragma unroll
        for (int z = 0; z < NZ; ++z) {
          Elem e;
#pragma unroll
          for (int w = 0; w < W; ++w) lanes::lane(e, w) = v[r][z][w];
          dst[index(x, y, z)] = e;
        }
    }
  }
};

// The cells a box owns (the cell kernels: operator k >= 3, transfers k >= 2 over the coarse
// cells), with launch-constant divisions that split a cell index into (cx, cy, cz) (split3)
// instead of runtime 64-bit ones.
struct CellRange {
  int count[3];
  Divider split[2]; // count[0], count[1]: the cell index into (cx, cy, cz)
  long ncells;      // < 2^31 where split is used (check_cell_range)
  // Cell cid (< ncells) of the range as the box's global cell coordinates c (c[2] = 0 in 2D).
  template <int dim>
  __device__ __forceinline__ void cell(long cid, const Box &box, int (&c)[3]) const
  {
    split3((unsigned)cid, split[0], split[1], c[0], c[1], c[2]);
    c[0] += box.cs[0];
    c[1] += box.cs[1];
    c[2] = dim == 3 ? c[2] + box.cs[2] : 0;
  }
};
inline CellRange owned_cells(const Box &box)
{
  CellRange r{};
  r.ncells = 1;
  for (int d = 0; d < 3; ++d) {
    r.count[d] = box.ce[d] > box.cs[d] ? box.ce[d] - box.cs[d] : 0;
    r.ncells *= r.count[d];
  }
  if (r.ncells > 0 && r.ncells <= Divider::max_dividend) {
    r.split[0] = Divider(r.count[0]);
    r.split[1] = Divider(r.count[1]);
  }
  return r;
}
inline void check_cell_range(const CellRange &r, const char *name)
{
  if (r.ncells > Divider::max_dividend) throw std::invalid_argument(std::string("vpatch cuda: ") + name + ": more than 2^31 - 1 cells");
}

template <typename Number>
__device__ __forceinline__ Number *shared_base()
{
  extern __shared__ __align__(16) unsigned char vpatch_smem[];
  return reinterpret_cast<Number *>(vpatch_smem);
}

// Row stride (at least `row` elements) of a shared-memory matrix whose rows, one per lane's
// output row in contract()'s plane form (lanes differ in the row up to `rows` values), then
// start on distinct banks (4-byte words over 32 banks, 8-byte words over 16 bank pairs).
constexpr int bank_free_rows(int row, int rows, int bytes)
{
  const int banks = bytes == 8 ? 16 : 32, n = rows < banks ? rows : banks;
  for (int s = row;; ++s) {
    bool distinct = true;
    for (int a = 0; a < n && distinct; ++a)
      for (int b = 0; b < a && distinct; ++b) distinct = (a * s - b * s) % banks != 0;
    if (distinct) return s;
  }
}

// The sum of v over a warp, valid in lane 0.
template <typename Number>
__device__ __forceinline__ Number warp_sum(Number v)
{
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
// The block's sum of v (every thread's; the block a multiple of 32 threads), valid in its
// first thread; red: one value per warp of shared memory that no thread reads any more.
template <typename Number>
__device__ Number block_sum(Number v, Number *red)
{
  const int nt = blockDim.x * blockDim.y * blockDim.z, tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  v = warp_sum(v);
  __syncthreads(); // red is free (a previous call's reads done)
  if (tid % 32 == 0) red[tid / 32] = v;
  __syncthreads();
  v = tid < nt / 32 ? red[tid] : Number(0);
  return tid < 32 ? warp_sum(v) : v;
}

// A block's part of sum_i r_i^2 over the residual values it stores (the norm of the
// Richardson tests formed in the residual's pass: the mixed precision's float residual, the
// double one's; the operator kernels' instantiations with it are their own, so those without
// it are unchanged; the boundary kernel of a double residual carries it behind a null
// partial): each thread adds the points it
// stores off the domain boundary (residual_boundary writes and counts those), and finish()
// writes the block's sum to partial[linear block index] for sum_block_partials, which adds them
// in a fixed order.
struct SquaresPart {
  double *partial;
  double s = 0;
  __device__ __forceinline__ void add(double v, bool count)
  {
    if (count) s = fma(v, v, s);
  }
  // By every thread of the block, after its last add (block_sum's conditions on red).
  __device__ void finish(double *red) const
  {
    const double b = block_sum(s, red);
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
      partial[blockIdx.x + (long)gridDim.x * (blockIdx.y + (long)gridDim.y * blockIdx.z)] = b;
  }
};

// A launcher's request for its launch's SquaresPart sums: take(grid) gives the device space
// for the grid's blocks and `extra` partials after them (block_partials), and records the count.
struct SquaresRequest {
  void *stream;
  long extra = 0;
  long blocks = 0;
  double *partial = nullptr;
  double *take(dim3 grid)
  {
    blocks = (long)grid.x * grid.y * grid.z;
    partial = block_partials((std::size_t)(blocks + extra), stream);
    return partial;
  }
};

// Stride of the shared-memory buffers of consecutive groups (patches, cells) of a block:
// `size` elements rounded up to a value congruent to `lanes` (the threads of a group)
// modulo the 32 banks, so a warp spanning two groups addresses distinct banks wherever its
// access is contiguous in the thread index (bank = lane + constant).
constexpr int bank_stride(int size, int lanes) { return size + ((lanes - size) % 32 + 32) % 32; }

// Where element (x, y, z) of group g's tensor lies in shared memory, relative to group 0's
// tensor: g PS + x SX + y SY + z SZ (patch_layout.hpp chooses these per smoother tensor).
template <int SX, int SY, int SZ, int PS>
struct TensorMap {
  __device__ static constexpr int at(int g, int x, int y, int z) { return g * PS + x * SX + y * SY + z * SZ; }
  __device__ static constexpr int stride(int dir) { return dir == 0 ? SX : (dir == 1 ? SY : SZ); }
};
// The default: x fastest with extents E0, E1 (compact, so the interior of a patch is
// contiguous, paper Fig. 13c/d), or in an N x N x N frame (Padded, the Basic kernel);
// groups S apart.
template <bool Padded, int N, int E0, int E1, int S>
using FrameMap = TensorMap<1, Padded ? N : E0, Padded ? N * N : E0 * E1, S>;

// A store for contract() that takes a thread's whole output column at once:
// column(acc, x, y, g) with acc[z][v] the NV results of the points (x, y, z) of group g.
// A read-modify-write of global memory can then issue all its loads before its first
// store; called point by point, each load waits for the previous store (the compiler
// cannot tell that they do not alias).
template <typename F>
struct ColumnStore {
  F column;
};
template <typename F>
ColumnStore(F) -> ColumnStore<F>;
template <typename Store>
struct is_column_store : std::false_type {};
template <typename F>
struct is_column_store<ColumnStore<F>> : std::true_type {};

template <int V>
using Int = std::integral_constant<int, V>;

// A body of contract() that takes a whole line (or z column) at once instead of one
// product at a time: body.line(in, acc) with in[NI][NE] the line's inputs along the
// contracted direction and acc[NR][NV] its outputs (laplace.cu: the operator's even-odd
// contractions). The loads and stores are those of the plain bodies.
struct WholeLineBody {};
template <typename Body>
inline constexpr bool is_whole_line = std::is_base_of_v<WholeLineBody, Body>;
// A whole-line body that also takes the line's place: line(in, acc, a, b, g) with (a, b) the
// line's free coordinates in contract_lines (a: y of an x line, x of a y line; b: z) and
// (x, y) of a z column, g its group. LineAt wraps a callable of those arguments.
struct WholeLineBodyAt : WholeLineBody {};
template <typename F>
struct LineAt : WholeLineBodyAt {
  F f;
  __device__ explicit LineAt(F body) : f(body) {}
  template <typename In, typename Acc>
  __device__ __forceinline__ void line(const In &in, Acc &acc, int a, int b, int g) const
  {
    f(in, acc, a, b, g);
  }
};
template <typename F>
LineAt(F) -> LineAt<F>;
template <typename Body, typename In, typename Acc>
__device__ __forceinline__ void whole_line(const Body &body, const In &in, Acc &acc, int a, int b, int g)
{
  if constexpr (std::is_base_of_v<WholeLineBodyAt, Body>) body.line(in, acc, a, b, g);
  else body.line(in, acc);
}

// The contraction index loop of contract() along z and of contract_lines(): calls
// step(k, Int<r0>, Int<r1>) for every input k = 0..NE-1 with the rows [r0, r1) that input
// k contributes to (unrolled by KU). Band: the NR = NE - 2 interior rows of the patch
// matrices, which couple to the inputs of their own cell only (core/patch_band.hpp), so
// the inputs of each cell take half the rows; the skipped entries are exact zeros, and
// the results are those of the full loop (an FMA with a zero product returns its addend).
template <int NE, int NR, bool Band, int KU, typename Step>
__device__ __forceinline__ void for_each_input(Step step)
{
  if constexpr (Band) {
    static_assert(NE == NR + 2 && NE % 2 == 1, "for_each_input: Band needs the (2k-1) x (2k+1) patch rows");
    constexpr int k = NE / 2;
#pragma unroll KU
    for (int c = 0; c < k; ++c) step(c, Int<band_rows_begin(k, 0)>{}, Int<band_rows_end(k, 0)>{});
    step(k, Int<band_rows_begin(k, k)>{}, Int<band_rows_end(k, k)>{});
#pragma unroll KU
    for (int c = k + 1; c < NE; ++c) step(c, Int<band_rows_begin(k, NE - 1)>{}, Int<band_rows_end(k, NE - 1)>{});
  } else {
#pragma unroll KU
    for (int c = 0; c < NE; ++c) step(c, Int<0>{}, Int<NR>{});
  }
}

// The point (x, y) of group g's O0 x O1 output plane that thread tid takes in round
// `round` of contract() (compact layouts; see there), and whether it takes one.
struct PlanePoint {
  int x, y, g;
  bool active;
};
template <int O0, int O1, int T, int G, bool Packed, bool Swap>
__device__ __forceinline__ PlanePoint plane_point(int tid, int round)
{
  if constexpr (Packed) {
    const int p = tid + round * G * T, t = p % (O0 * O1), g = p / (O0 * O1);
    return {Swap ? t / O1 : t % O0, Swap ? t % O1 : t / O0, g, g < G};
  } else {
    const int t = (G == 1 ? tid : tid % T) + round * T;
    return {Swap ? t / O1 : t % O0, Swap ? t % O1 : t / O0, G == 1 ? 0 : tid / T, t < O0 * O1};
  }
}

// One sum-factorization step along direction dir on tensors of input extents
// (E0, E1, E2); the contracted extent is replaced by NR rows. NM 1D matrices (row-major
// NR x NE, in shared memory) and NI input tensors are combined by body(acc, mv, iv) into
// NV accumulators per output point, where mv holds the NM matrix entries (row, k) and iv
// the NI input entries at contraction index k.
//
// G groups (patches or cells) share the thread block, T threads each; group g's tensors
// lie S elements after group 0's, so `ins` and the offsets given to `store` refer to
// group 0's buffers. In and Out (TensorMap) place the elements of the input and output
// tensors; by default x fastest with their own extents and groups S apart, as described
// here (the smoother's tuned layouts give each tensor its own strides, patch_layout.hpp).
// Swap: the second free coordinate runs fastest over a group's threads (the plane's y
// before x; in contract_lines z before the line's other free coordinate). Thread layout
// (paper Fig. 5, 2D structure): a thread owns one (x, y) point of one group's output plane
// and walks the whole z column, accumulating in registers. Compact layout: point p of the plane of group g is taken by thread
// g T + p (the active threads of a group are a prefix of its threads), or with Packed by
// thread g O0 O1 + p (the G planes one after the other: the active threads are a prefix
// of the block, idle warps skip the stage, however small the plane is against T). A plane
// larger than T points per group is covered in rounds (thread t takes points t, t + T, ...;
// not with InPlace). The
// write out[x + O0 (y + O1 z)] is contiguous in the thread index, matrix rows are read
// with stride MS (NE, free of bank conflicts where odd, or bank_free_rows) or broadcast,
// inputs contiguously or broadcast
// (Listing 2). Padded (Basic): thread (tx, ty) of group g's N x N frame, masked by
// coordinates, and direction 0 computed transposed as in Listing 1.
//
// store(acc, x, y, z, o, g) receives the NV results of point (x, y, z) of group g and
// its offset o in the output tensor (from group 0's buffer: Out::at(g, x, y, z)). A ColumnStore
// receives the thread's whole z column instead. The z loop is
// fully unrolled (register accumulators), the k loop for small sizes; for dir < 2 the
// matrix entries are loaded once per k for all z, for dir == 2 the input entry is. With
// InPlace the results are stored only after a __syncthreads(), so out may alias the
// inputs. Every thread of the block must call this (it may synchronize). MS: the row
// stride of the matrices in the plane form (default NE; bank_free_rows pads it).
template <int dir, int E0, int E1, int E2, int NR, int NM, int NI, int NV, int T, bool InPlace, int G, int S, bool Packed,
          bool Band, typename In, typename Out, bool Swap, typename EO, typename Matrix, typename Number, typename Body, typename Store>
__device__ __forceinline__ void contract_lines(int tid, const Matrix *const (&mats)[NM], const Number *const (&ins)[NI], Body body,
                                               Store store);

// Even-odd decomposition of a 1D contraction with the eigenvectors of the fast
// diagonalization (deal.II's evaluate_evenodd): the patch matrices are symmetric under the
// reflection i -> m - 1 - i, so each eigenvector (column j of S) is even or odd under it,
// S[m-1-i][j] = s_j S[i][j] with s_j = -1 for the bits of Odd. Transposed: the matrix of the
// contraction is S^T (out[r] = sum_k S[k][r] in[k]): inputs k and m - 1 - k enter as their sum
// or difference; otherwise S (out[r] = sum_k S[r][k] in[k]): outputs r and m - 1 - r share the
// products of row r. Half the multiplies of the plain product, and only the entries up to the
// middle are read. NoEvenOdd: the plain product (body).
struct NoEvenOdd {
  static constexpr bool on = false;
};
template <unsigned Odd, bool Transposed>
struct EvenOdd {
  static constexpr bool on = true;
  static constexpr unsigned odd = Odd;
  static constexpr bool transposed = Transposed;
};
// out[r][0] = sum_k A[r m + k] in[k] for the m x m matrix A (S or S^T as EO says; m odd).
template <typename EO, int m, typename Matrix, typename Number>
__device__ __forceinline__ void contract_evenodd(const Matrix *A, const Number (&in)[m], Number (&out)[m][1])
{
  static_assert(m % 2 == 1, "contract_evenodd: odd extent");
  constexpr int h = m / 2; // the middle point, fixed by the reflection
  constexpr auto odd = [](int j) { return ((EO::odd >> j) & 1u) != 0; };
  if constexpr (EO::transposed) {
    Number e[h], o[h];
#pragma unroll
    for (int k = 0; k < h; ++k) {
      e[k] = in[k] + in[m - 1 - k];
      o[k] = in[k] - in[m - 1 - k];
    }
#pragma unroll
    for (int r = 0; r < m; ++r) {
      Number acc = odd(r) ? Number(0) : A[r * m + h] * in[h]; // (S[h][r] = 0 for an odd column)
#pragma unroll
      for (int k = 0; k < h; ++k) acc = fma(A[r * m + k], odd(r) ? o[k] : e[k], acc);
      out[r][0] = acc;
    }
  } else {
#pragma unroll
    for (int r = 0; r <= h; ++r) {
      Number even = Number(0), oddsum = Number(0);
#pragma unroll
      for (int k = 0; k < m; ++k) {
        if (odd(k)) {
          if (r < h) oddsum = fma(A[r * m + k], in[k], oddsum); // (S[h][k] = 0 for an odd column)
        } else even = fma(A[r * m + k], in[k], even);
      }
      if (r < h) {
        out[r][0] = even + oddsum;
        out[m - 1 - r][0] = even - oddsum;
      } else out[h][0] = even;
    }
  }
}

// out[r][0] = sum_k A[r m + k] in[k] on one line in registers: even-odd where EO is on,
// else the plain m x m product.
template <typename EO, int m, typename Matrix, typename Number>
__device__ __forceinline__ void contract_in_registers(const Matrix *A, const Number (&in)[m], Number (&out)[m][1])
{
  if constexpr (EO::on) contract_evenodd<EO>(A, in, out);
  else
#pragma unroll
    for (int r = 0; r < m; ++r) {
      Number acc = Number(0);
#pragma unroll
      for (int k = 0; k < m; ++k) acc += A[r * m + k] * in[k];
      out[r][0] = acc;
    }
}

template <int dir, int E0, int E1, int E2, int NR, int NM, int NI, int NV, bool Padded, int N, int T, bool InPlace, int G, int S,
          bool Packed, bool Band, typename In, typename Out, bool Swap, int MS, typename EO, typename Matrix, typename Number,
          typename Body, typename Store>
__device__ __forceinline__ void contract_plane(int tid, const Matrix *const (&mats)[NM], const Number *const (&ins)[NI], Body body,
                                               Store store);

template <int dir, int E0, int E1, int E2, int NR, int NM, int NI, int NV, bool Padded, int N, int T, bool InPlace,
          int G = 1, int S = 0, bool Packed = false, bool Lines = false, bool Band = false,
          typename In = FrameMap<Padded, N, E0, E1, S>,
          typename Out = FrameMap<Padded, N, dir == 0 ? NR : E0, dir == 1 ? NR : E1, S>, bool Swap = false, int MS = 0,
          typename EO = NoEvenOdd, typename Matrix, typename Number, typename Body, typename Store>
__device__ __forceinline__ void contract(int tid, const Matrix *const (&mats)[NM], const Number *const (&ins)[NI], Body body,
                                         Store store)
{
  static_assert(!EO::on || (NM == 1 && NI == 1 && NV == 1 && !Band && !Padded && (Lines || dir == 2)),
                "contract: the even-odd form takes one matrix and one input, by lines or along z");
  if constexpr (Lines && !Padded && dir < 2)
    contract_lines<dir, E0, E1, E2, NR, NM, NI, NV, T, InPlace, G, S, Packed, Band, In, Out, Swap, EO>(tid, mats, ins, body, store);
  else
    contract_plane<dir, E0, E1, E2, NR, NM, NI, NV, Padded, N, T, InPlace, G, S, Packed, Band, In, Out, Swap, MS, EO>(tid, mats, ins,
                                                                                                                  body, store);
}

// contract() in the plane layout (dir 0, 1) or walking z (dir 2).
template <int dir, int E0, int E1, int E2, int NR, int NM, int NI, int NV, bool Padded, int N, int T, bool InPlace, int G, int S,
          bool Packed, bool Band, typename In, typename Out, bool Swap, int MS, typename EO, typename Matrix, typename Number,
          typename Body, typename Store>
__device__ __forceinline__ void contract_plane(int tid, const Matrix *const (&mats)[NM], const Number *const (&ins)[NI], Body body,
                                               Store store)
{
  static_assert(!Swap || !Padded, "contract: Swap applies to the compact thread maps");
  constexpr int O0 = dir == 0 ? NR : E0, O1 = dir == 1 ? NR : E1, O2 = dir == 2 ? NR : E2;
  constexpr int NE = dir == 0 ? E0 : (dir == 1 ? E1 : E2);
  constexpr int ME = MS > 0 ? MS : NE; // matrix row stride
  // Rounds: a plane larger than the thread group is covered in ceil(plane / T) passes.
  constexpr int R = Padded ? 1 : (O0 * O1 + T - 1) / T;
  static_assert(Padded || !InPlace || R == 1, "contract: in-place output plane larger than the thread group");
  auto pass = [&](int round) {
    int x, y, g;
    bool active;
    if (Padded) {
      g = tid / T;
      const int t = tid % T, tx = t % N, ty = t / N;
      x = dir == 0 ? ty : tx;
      y = dir == 0 ? tx : ty;
      active = g < G && x < O0 && y < O1;
    } else {
      const PlanePoint q = plane_point<O0, O1, T, G, Packed, Swap>(tid, round);
      x = q.x;
      y = q.y;
      g = q.g;
      active = q.active;
    }
    Number acc[O2][NV];
#pragma unroll
    for (int z = 0; z < O2; ++z)
#pragma unroll
      for (int v = 0; v < NV; ++v) acc[z][v] = Number(0);
    // one contraction index k: the z outputs [z0, z1) it contributes to (all but with Band)
    auto step = [&](int k, auto z0, auto z1) {
      Matrix mv[NM];
      Number iv[NI];
      if (dir < 2) {
        const int row = dir == 0 ? x : y;
#pragma unroll
        for (int j = 0; j < NM; ++j) mv[j] = mats[j][row * ME + k];
      } else {
#pragma unroll
        for (int j = 0; j < NI; ++j) iv[j] = ins[j][In::at(g, x, y, k)];
      }
#pragma unroll
      for (int z = decltype(z0)::value; z < decltype(z1)::value; ++z) {
        if (dir < 2) {
          const int src = dir == 0 ? In::at(g, k, y, z) : In::at(g, x, k, z);
#pragma unroll
          for (int j = 0; j < NI; ++j) iv[j] = ins[j][src];
        } else {
#pragma unroll
          for (int j = 0; j < NM; ++j) mv[j] = mats[j][z * ME + k];
        }
        if constexpr (!is_whole_line<Body>) body(acc[z], mv, iv);
      }
    };
    // Full unrolling for small contractions; for large ones (3D, k >= 5) an unroll factor
    // of 2 keeps the compiler from hoisting many loads (register pressure: spills at 3D k = 4, 8).
    constexpr int KU = NE * O2 <= 64 ? NE : 2;
    // Band applies along z, where the rows are the unrolled outputs (in the plane layout of
    // dir 0 and 1 the row is the thread's coordinate)
    if constexpr (is_whole_line<Body>) {
      static_assert(dir == 2 && !Padded && !Band && NR == NE, "contract: a whole-line body walks z on compact layouts, square");
      if (active) {
        Number in[NI][NE];
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
          for (int k = 0; k < NE; ++k) in[j][k] = ins[j][In::at(g, x, y, k)];
        whole_line(body, in, acc, x, y, g);
      }
    } else if constexpr (EO::on) {
      static_assert(NE == O2 && ME == NE, "contract: even-odd along z takes a square matrix");
      if (active) {
        Number in[NE];
#pragma unroll
        for (int k = 0; k < NE; ++k) in[k] = ins[0][In::at(g, x, y, k)];
        contract_evenodd<EO>(mats[0], in, acc);
      }
    } else if (active) for_each_input<NE, O2, Band && dir == 2, KU>(step);
    if (InPlace) __syncthreads();
    if (active) {
      if constexpr (is_column_store<Store>::value) store.column(acc, x, y, g);
      else {
#pragma unroll
        for (int z = 0; z < O2; ++z) store(acc[z], x, y, z, Out::at(g, x, y, z), g);
      }
    }
  };
  if constexpr (R == 1) pass(0); // the common case, with the round offsets folded away
  else {
#pragma unroll 1
    for (int round = 0; round < R; ++round) pass(round);
  }
}

// contract() with Lines (compact layouts): one thread per line along the contracted
// direction, the two other coordinates fixed, as the z walk of dir 2 above, for dir 0 and
// 1 too. The thread reads each of its line's NE inputs once and accumulates all NR outputs
// of the line in registers; in the plane layout of contract() every output row reads the
// whole input line again (NR broadcast loads per input, plus a matrix entry per row and
// k). The matrix entries are the same for every thread: pass launch constants (operands
// from the constant bank; tuning.hpp, line_contractions), not shared memory. Lines of
// group g: thread t of the group takes lines t, t + T, ... (Packed: the G groups' lines one
// after the other over the block). InPlace stores after a __syncthreads() in every round.
// With several rounds that is enough when NR <= NE: a later round's lines lie further along
// the slowest free coordinate b, and the outputs of lines with b' < b (offsets below
// NR x (extent of a) x b) lie below their inputs (offsets from NE x (extent of a) x b),
// while lines with the same b differ in a, which no offset mixes up.
template <int dir, int E0, int E1, int E2, int NR, int NM, int NI, int NV, int T, bool InPlace, int G, int S, bool Packed,
          bool Band, typename In, typename Out, bool Swap, typename EO, typename Matrix, typename Number, typename Body, typename Store>
__device__ __forceinline__ void contract_lines(int tid, const Matrix *const (&mats)[NM], const Number *const (&ins)[NI], Body body,
                                               Store store)
{
  static_assert(dir < 2, "contract_lines: x or y lines");
  constexpr int NE = dir == 0 ? E0 : E1, EA = dir == 0 ? E1 : E0; // line length, extent of the first free coordinate
  constexpr int L = EA * E2;                                       // lines per group
  constexpr int R = Packed ? (G * L + G * T - 1) / (G * T) : (L + T - 1) / T;
  static_assert(!InPlace || R == 1 || (NR <= NE && std::is_same_v<In, FrameMap<false, 0, E0, E1, S>> &&
                                       std::is_same_v<Out, FrameMap<false, 0, dir == 0 ? NR : E0, dir == 1 ? NR : E1, S>>),
                "contract_lines: in-place rounds would overwrite later inputs");
  constexpr int in_step = In::stride(dir), out_step = Out::stride(dir); // along the line
  auto pass = [&](int round) {
    int g, l;
    bool active;
    if (Packed) {
      const int p = tid + round * G * T;
      g = p / L;
      l = p % L;
      active = g < G;
    } else {
      g = G == 1 ? 0 : tid / T;
      l = (G == 1 ? tid : tid % T) + round * T;
      active = l < L;
    }
    // free coordinates (a, b) of the line (a: y for x lines, x for y lines; b: z) and its
    // first input and output offsets
    const int a = Swap ? l / E2 : l % EA, b = Swap ? l % E2 : l / EA;
    const int in0 = dir == 0 ? In::at(g, 0, a, b) : In::at(g, a, 0, b);
    const int out0 = dir == 0 ? Out::at(g, 0, a, b) : Out::at(g, a, 0, b);
    Number acc[NR][NV];
#pragma unroll
    for (int r = 0; r < NR; ++r)
#pragma unroll
      for (int v = 0; v < NV; ++v) acc[r][v] = Number(0);
    if constexpr (is_whole_line<Body>) {
      static_assert(!Band && NR == NE, "contract_lines: a whole-line body takes every input of a square matrix");
      if (active) {
        Number in[NI][NE];
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
          for (int k = 0; k < NE; ++k) in[j][k] = ins[j][in0 + k * in_step];
        whole_line(body, in, acc, a, b, g);
      }
    } else if constexpr (EO::on) {
      static_assert(NE == NR, "contract_lines: even-odd takes a square matrix");
      if (active) {
        Number in[NE];
#pragma unroll
        for (int k = 0; k < NE; ++k) in[k] = ins[0][in0 + k * in_step];
        contract_evenodd<EO>(mats[0], in, acc);
      }
    } else if (active) for_each_input<NE, NR, Band, NE>([&](int k, auto r0, auto r1) {
      Number iv[NI];
      Matrix mv[NM];
#pragma unroll
      for (int j = 0; j < NI; ++j) iv[j] = ins[j][in0 + k * in_step];
#pragma unroll
      for (int r = decltype(r0)::value; r < decltype(r1)::value; ++r) {
#pragma unroll
        for (int j = 0; j < NM; ++j) mv[j] = mats[j][r * NE + k];
        body(acc[r], mv, iv);
      }
    });
    if (InPlace) __syncthreads();
    if (active) {
#pragma unroll
      for (int r = 0; r < NR; ++r) {
        store(acc[r], dir == 0 ? r : a, dir == 1 ? r : a, b, out0 + r * out_step, g);
      }
    }
  };
  if constexpr (R == 1) pass(0);
  else {
#pragma unroll 1
    for (int round = 0; round < R; ++round) pass(round);
  }
}

// Bodies of contract() for the mass/stiffness pairs (NM = 2, NI = 2). Chained: one FMA per
// product, acc = fma(m1, i1, fma(m0, i0, acc)); otherwise acc += m0 i0 + m1 i1, which the
// compiler must evaluate as mul, fma, add (the products' sum rounded first) but whose
// dependency chain on acc is one instruction per k instead of two. Both are exact to
// rounding; which is faster depends on the kernel (tuning.hpp, chained_fma).
// SumOfTwo: acc0 += m0 i0 + m1 i1.
template <bool Chained>
struct SumOfTwo {
  template <typename Number, typename Matrix>
  __device__ __forceinline__ void operator()(Number *acc, const Matrix *mv, const Number *iv) const
  {
    if constexpr (Chained) acc[0] = fma(mv[1], iv[1], fma(mv[0], iv[0], acc[0]));
    else acc[0] += mv[0] * iv[0] + mv[1] * iv[1];
  }
};
// SumOfTwoAndMass: acc0 += m0 i0 + m1 i1, acc1 += m0 i1 (u = M c + K a and v = M a at once).
template <bool Chained>
struct SumOfTwoAndMass {
  template <typename Number, typename Matrix>
  __device__ __forceinline__ void operator()(Number *acc, const Matrix *mv, const Number *iv) const
  {
    SumOfTwo<Chained>{}(acc, mv, iv);
    acc[1] += mv[0] * iv[1];
  }
};

} // namespace detail
} // namespace cuda
} // namespace vpatch
