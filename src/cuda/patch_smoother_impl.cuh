// Vertex-patch smoother kernels (paper sections 3.1, 4.1): one color of patch corrections
// out_I += scale A_j^{-1} r_j, the residual formed locally from the patch closure (Fused,
// Basic), taken from rhs (PatchResidual::Given, the Global variant), or replaced by
// x_I = A_II^{-1} (b_I - A_IB x_B) (Boundary). Included by the per-dimension
// instantiation files; patch_smoother.cu dispatches to launch_patch<dim, k, Number>.
#pragma once
#include "common.cuh"
#include "eigen_parity.hpp"
#include "lanes.cuh"
#include "patch_layout.hpp"
#include "reference_tables.hpp"
#include "tuning.hpp"
#include <cmath>
#include <limits>
#include <type_traits>

namespace vpatch {
namespace cuda {
namespace detail {

template <typename Number>
struct PatchArgs {
  Box box;
  PatchView<Number> p;
  int dense, given, atomic;
  Number scale;
  // With the reference matrices (tuning.hpp, reference_matrices): the level's patch
  // operator is op_scale A^ and its inverse solve_scale A^-1 (h^(d-2), h^(2-d)).
  Number op_scale, solve_scale;
  const Number *rhs, *x;
  Number *out;
  int first[3], step, count[3];
  Divider split[2]; // count[0], count[1]: the patch index into (px, py, pz)
  long npatches;    // < 2^31
};

// The patch matrices as launch parameters (tuning.hpp, launch_matrices): M rows, K rows
// (m x n each), S, S^T (m x m each); one unused entry where the kernel reads them from
// shared memory only.
template <typename Number, int N>
struct LaunchMatrices {
  Number v[N];
};

// The reference tables (h = 1, reference_tables.hpp) in Number, the matrices in the
// order of LaunchMatrices, then the eigenvalues; compiled into the kernel, so entries at
// unrolled indices are immediate operands.
template <int k, typename Number>
struct ReferenceMatrices {
  static constexpr int m = 2 * k - 1, n = 2 * k + 1;
  Number v[2 * m * n + 2 * m * m], lam[m];
};
template <int k, typename Number>
constexpr ReferenceMatrices<k, Number> make_reference_matrices()
{
  using R = reference::PatchTables<k>;
  constexpr int m = 2 * k - 1, n = 2 * k + 1;
  ReferenceMatrices<k, Number> t{};
  for (int i = 0; i < m * n; ++i) {
    t.v[i]         = Number(R::mass_rows[i]);
    t.v[m * n + i] = Number(R::stiffness_rows[i]);
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      t.v[2 * m * n + i * m + j]         = Number(R::eigenvectors[i * m + j]);
      t.v[2 * m * n + m * m + i * m + j] = Number(R::eigenvectors[j * m + i]);
    }
  for (int i = 0; i < m; ++i) t.lam[i] = Number(R::eigenvalues[i]);
  return t;
}
template <int k, typename Number>
__device__ constexpr ReferenceMatrices<k, Number> reference_launch_matrices = make_reference_matrices<k, Number>();


// The cell size h of a level whose patch rows are h M^ and K^ / h (the reference tables);
// throws for tables that are not (a level the reference matrices do not describe).
template <int k, typename Number>
double reference_cell_size(const Number *mass_rows, const Number *stiffness_rows)
{
  using R = reference::PatchTables<k>;
  constexpr int N = (2 * k - 1) * (2 * k + 1);
  int c = 0;
  for (int i = 1; i < N; ++i)
    if (std::fabs(R::mass_rows[i]) > std::fabs(R::mass_rows[c])) c = i;
  const double h = (double)mass_rows[c] / R::mass_rows[c];
  double dm = 0, dk = 0, mm = 0, mk = 0;
  for (int i = 0; i < N; ++i) {
    dm = std::fmax(dm, std::fabs((double)mass_rows[i] - h * R::mass_rows[i]));
    dk = std::fmax(dk, std::fabs((double)stiffness_rows[i] - R::stiffness_rows[i] / h));
    mm = std::fmax(mm, std::fabs((double)mass_rows[i]));
    mk = std::fmax(mk, std::fabs((double)stiffness_rows[i]));
  }
  const double tol = 64 * std::numeric_limits<Number>::epsilon();
  if (!(h > 0) || !(dm <= tol * mm) || !(dk <= tol * mk))
    throw std::invalid_argument("vpatch cuda: patch_correct: the level's patch tables are not the reference tables scaled by a "
                                "cell size (uniform cells expected)");
  return h;
}

// Shared-memory plan of one patch (of a pair of patches where W = 2: tuning.hpp,
// patch_lanes; Elem then holds a point of both, and "patch" below means the pair). n = 2k+1
// closure points, m = 2k-1 interior points per direction. Default layout
// (patch_layout.hpp): buffer A holds the closure x (n^d), later the residual and the odd
// FDM stages; buffer B holds M_0 x and K_0 x (m n^{d-1} each,
// compact) and later the even FDM stages. Padded (Basic): every tensor in an n^d frame,
// B = 2 n^d. 3D k = 2..4 (Fused): searched layouts, one placement per tensor.
template <int dim, int k, typename Number, SmootherKernel V>
struct PatchPlan {
  static constexpr int n = 2 * k + 1, m = 2 * k - 1;
  static constexpr bool padded = V == SmootherKernel::Basic;
  static constexpr int W = padded ? 1 : patch_lanes(dim, k, sizeof(Number) == 8); // patches per thread
  using Elem = lanes::LanesOf<Number, W>;
  // launch shape, layouts, early loads: by the element's size (a float pair takes the double
  // kernel's); matrices and the multiply-add chains: by the scalar's
  static constexpr bool wide = sizeof(Elem) == 8, is_double = sizeof(Number) == 8;
  static constexpr int P = patches_per_block(dim, k, wide);
  // threads per patch: one per point of the n x n frame (Basic) or of the plane that
  // patch_thread_plane selects (n x n, m x n, m x m: fewer idle threads in the m x m stages)
  static constexpr int plane = padded ? ClosurePlane : patch_thread_plane(dim, k, wide);
  static constexpr int T = plane == ClosurePlane ? n * n : plane == ResidualPlane ? m * n : m * m;
  static constexpr bool packed = !padded && pack_patches(dim, k, wide);
  // (a hint beyond the 2048 threads of an SM, counted in whole warps, would be ignored by
  // ptxas, with a warning: Basic 3D float k = 3, 245 threads; k = 4, 162 threads)
  static constexpr int min_blocks_hint = patch_min_blocks_per_sm(dim, k, wide, is_double);
  static constexpr int min_blocks = (T * P + 31) / 32 * 32 * min_blocks_hint <= 2048 ? min_blocks_hint : 0;
  static constexpr bool chained = chained_fma(true, dim, k, is_double);
  static constexpr int nz = dim == 3 ? n : 1, mz = dim == 3 ? m : 1;
  static constexpr int nd = n * n * nz;
  static constexpr int sizeA = nd;
  static constexpr int halfB = padded ? nd : m * n * nz;
  static constexpr int unpadded = sizeA + 2 * halfB;
  static constexpr bool pad = !padded && P > 1 && pad_patch_stride(dim, k, wide);
  // stride congruent to the threads per patch (packed: the points of an m x m plane)
  static constexpr int per_patch = pad ? bank_stride(unpadded, packed ? m * m : T) : unpadded;
  // x and y contractions with one thread per line too (common.cuh, contract_lines)
  static constexpr bool lines = !padded && line_contractions(dim, k, wide);
  // the local solve's contractions in even-odd form (half the multiplies; common.cuh,
  // contract_evenodd), where they take launch constants
  static constexpr bool evenodd = lines && evenodd_solve(dim, k, is_double);
  // The local solve's 1 / (lam_x + lam_y + lam_z) as a table built once per block, where the
  // contractions run by lines (they read no shared matrices, so the table takes their place):
  // per point a load and a multiply instead of a division (about 20 instructions with the
  // reloads of the eigenvalues that the stores between them force).
  static constexpr bool inverse_table = lines && V != SmootherKernel::Boundary;
  static constexpr int table = inverse_table ? m * m * mz : 0;
  static constexpr int mats = std::max(2 * m * n + 2 * m * m + m, table);
  static constexpr bool async = async_gathers(dim, k); // cp.async input gathers
  // the closure through registers (common.cuh, RegisterGather) instead of gather_box
  static constexpr bool register_gather = !padded && register_gathers(dim, k);
  // two of the local solve's contractions in registers (tuning.hpp, solve_in_registers)
  static constexpr bool solve_in_registers = !padded && cuda::solve_in_registers(dim, k, wide);
  static constexpr bool launch_mats = !padded && launch_matrices(dim, k, wide);
  static constexpr int launch_size = 2 * m * n + 2 * m * m;
  // the launch-constant matrices compiled in (h = 1) instead of passed
  static constexpr bool reference = launch_mats && reference_matrices(dim, k, is_double);
  static_assert(!lines || launch_mats, "PatchPlan: lines take the matrices as launch constants");
  using Matrices = LaunchMatrices<Number, launch_mats && !reference ? launch_size : 1>;
  // where each stage's tensor lies (after the matrices), and the thread map of each stage
  static constexpr PatchLayout layout = has_searched_layout(dim, k, wide, T, P, V == SmootherKernel::Fused && lines, solve_in_registers)
                                          ? searched_patch_layout(k, wide, T, P, solve_in_registers)
                                          : default_patch_layout(n, m, padded, sizeA, halfB, per_patch, P);
  template <int tensor>
  using Map = TensorMap<layout.t[tensor].sx, layout.t[tensor].sy, layout.t[tensor].sz, layout.t[tensor].ps>;
  // The tables (mats scalars), then the tensors (elements, aligned), then the closure-corner
  // index of each patch of the block (-1: no patch).
  static constexpr std::size_t tensors = (sizeof(Number) * (std::size_t)mats + sizeof(Elem) - 1) / sizeof(Elem) * sizeof(Elem);
  static constexpr std::size_t corners = (tensors + sizeof(Elem) * (std::size_t)layout.size + 7) / 8 * 8;
  static constexpr std::size_t smem = corners + sizeof(long) * P * W;
};

template <int dim, int k, typename Number, SmootherKernel V>
__global__ void __launch_bounds__(PatchPlan<dim, k, Number, V>::T *PatchPlan<dim, k, Number, V>::P,
                                  PatchPlan<dim, k, Number, V>::min_blocks)
  patch_kernel(const PatchArgs<Number> a, const __grid_constant__ typename PatchPlan<dim, k, Number, V>::Matrices lm)
{
  using Plan = PatchPlan<dim, k, Number, V>;
  using Elem = typename Plan::Elem; // a point of the W patches a thread works on
  using lanes::lane;
  constexpr int n = Plan::n, m = Plan::m, T = Plan::T, nz = Plan::nz, mz = Plan::mz, P = Plan::P, PS = Plan::per_patch, W = Plan::W;
  constexpr bool Pd = Plan::padded, Pk = Plan::packed, boundary_variant = V == SmootherKernel::Boundary;
  constexpr PatchLayout lay = Plan::layout;
  using MapX = typename Plan::template Map<Closure>;
  using MapAC = typename Plan::template Map<MassStiffnessX>;
  using MapUV = typename Plan::template Map<MassStiffnessY>;
  using MapR = typename Plan::template Map<Residual>;
  using MapS0 = typename Plan::template Map<Solve0>;
  using MapS1 = typename Plan::template Map<Solve0 + 1>;
  using MapS2 = typename Plan::template Map<Solve0 + 2>;
  using MapS3 = typename Plan::template Map<Solve0 + 3>;
  using MapS4 = typename Plan::template Map<Solve0 + 4>;
  Number *sm = shared_base<Number>();
  Number *Mr = sm, *Kr = Mr + m * n, *S = Kr + m * n, *St = S + m * m, *lam = St + m * m, *inverse = sm;
  // The tables copied to shared memory: the level's, or the reference ones.
  const Number *tM = a.p.mass_rows, *tK = a.p.stiffness_rows, *tS = a.p.eigenvectors, *tSt = a.p.eigenvectors_t,
               *tlam = a.p.eigenvalues;
  // The matrices of the z contractions (uniform entries): launch constants (or compiled in)
  // or shared memory; those of the x and y contractions: the same where they run by lines.
  const Number *Mz = Mr, *Kz = Kr, *Sz = S, *Stz = St;
  if constexpr (Plan::launch_mats) {
    const Number *v = lm.v;
    if constexpr (Plan::reference) {
      v    = reference_launch_matrices<k, Number>.v;
      tM   = v;
      tK   = v + m * n;
      tS   = v + 2 * m * n;
      tSt  = tS + m * m;
      tlam = reference_launch_matrices<k, Number>.lam;
    }
    Mz = v;
    Kz = v + m * n;
    Sz = v + 2 * m * n;
    Stz = Sz + m * m;
  }
  constexpr bool Ln = Plan::lines;
  const Number *Mx = Ln ? Mz : Mr, *Kx = Ln ? Kz : Kr, *Sx = Ln ? Sz : S, *Stx = Ln ? Stz : St;
  // the local solve's contractions with S^T and S (even-odd where Plan::evenodd)
  using EOSt = std::conditional_t<Plan::evenodd, EvenOdd<eigenvector_odd_columns<k>(), true>, NoEvenOdd>;
  using EOS = std::conditional_t<Plan::evenodd, EvenOdd<eigenvector_odd_columns<k>(), false>, NoEvenOdd>;
  // With Plan::solve_in_registers the residual tensor r0 holds S^T_z r instead of r (but
  // for the dense inverse, which takes r): the residual's z stage, or the given residual's
  // load, applies it to the thread's own z column (PatchPlan, tuning.hpp fused_solve).
  constexpr bool Rz = Plan::solve_in_registers;
  auto transpose_z = [&](const Elem(&col)[mz], Elem(&out)[mz][1]) { contract_in_registers<EOSt, mz>(Stz, col, out); };
  const int tid = threadIdx.x, pib = tid / T, t = tid % T;
  // The stage tensors of patch 0 (the contractions address patch g through the maps).
  Elem *const buf = reinterpret_cast<Elem *>(reinterpret_cast<unsigned char *>(sm) + Plan::tensors);
  Elem *const X0 = buf + lay.t[Closure].base, *const a0 = buf + lay.t[MassStiffnessX].base,
              *const c0 = a0 + lay.t[MassStiffnessX].pair, *const u0 = buf + lay.t[MassStiffnessY].base,
              *const v0 = u0 + lay.t[MassStiffnessY].pair, *const r0 = buf + lay.t[Residual].base;
  Elem *const s0 = buf + lay.t[Solve0].base, *const s1 = buf + lay.t[Solve0 + 1].base, *const s2 = buf + lay.t[Solve0 + 2].base,
              *const s3 = buf + lay.t[Solve0 + 3].base, *const s4 = buf + lay.t[Solve0 + 4].base;
  static_assert(lay.t[Closure].sx == 1 && lay.t[Closure].sy == n && lay.t[Closure].sz == n * n,
                "patch_kernel: gather_box fills the closure x fastest in an n^d box");
  static_assert(!boundary_variant || std::is_same_v<MapAC, FrameMap<Pd, n, m, n, PS>>,
                "patch_kernel: the Boundary residual writes a, c in the default layout");
  long *corner = reinterpret_cast<long *>(reinterpret_cast<unsigned char *>(sm) + Plan::corners);

  // Shared copies of the tables that a stage reads from shared memory (by lines every
  // contraction takes launch constants; the Boundary residual reads M and K).
  if constexpr (!Ln || boundary_variant)
    for (int i = tid; i < m * n; i += blockDim.x) {
      Mr[i] = tM[i];
      Kr[i] = tK[i];
    }
  if constexpr (!Ln)
    for (int i = tid; i < m * m; i += blockDim.x) {
      S[i]  = tS[i];
      St[i] = tSt[i];
    }
  if constexpr (!Plan::inverse_table)
    for (int i = tid; i < m; i += blockDim.x) lam[i] = tlam[i];
  // (while the closure's copies are in flight)
  auto fill_inverse_table = [&] {
    if constexpr (Plan::inverse_table)
      for (int i = tid; i < Plan::table; i += blockDim.x) inverse[i] = Number(1) / (tlam[i % m] + tlam[i / m % m] + tlam[i / (m * m)]);
  };

  // lane w of this thread's element: patch W (blockIdx.x P + pib) + w
  const Box &box = a.box;
  const long gx = 1, gy = box.gm[0], gz = (long)box.gm[0] * box.gm[1];
  bool valid[W];
  int i0[W], j0[W], l0[W];
  long base[W]; // closure corners
#pragma unroll
  for (int c = 0; c < W; ++c) {
    const long pid = ((long)blockIdx.x * Plan::P + pib) * W + c;
    valid[c] = pid < a.npatches;
    i0[c] = j0[c] = l0[c] = 0;
    if (valid[c]) {
      int px, py, pz;
      split3((unsigned)pid, a.split[0], a.split[1], px, py, pz);
      i0[c] = (a.first[0] + a.step * px - 1) * k;
      j0[c] = (a.first[1] + a.step * py - 1) * k;
      l0[c] = dim == 3 ? (a.first[2] + a.step * pz - 1) * k : 0;
    }
    base[c] = valid[c] ? box.local_index(i0[c], j0[c], l0[c]) : 0;
    if (Pk && t == 0) corner[pib * W + c] = valid[c] ? base[c] : -1;
  }
  // Closure corner of lane c of patch g (-1: no patch); g is this thread's patch unless Packed.
  auto corner_of = [&](int g, int c) -> long {
    if constexpr (Pk) return corner[g * W + c];
    else return valid[c] ? base[c] : -1;
  };
  // Global values a stage needs late, loaded early into registers where tuning.hpp says so
  // (prefetch_rhs, prefetch_out): their latency then overlaps the stages in between (leaving
  // out the loads of b, or of out, made the 3D k = 3 float kernel 20% / 16% faster, an upper
  // bound). load_column: the interior column (x, y, 0..mz-1) of patch q.g at the thread's
  // point q of a stage's m x m output plane (contract()'s thread map); 0 where it has none.
  static_assert(m * m <= T, "patch_kernel: the z stages take one round (one column per thread)");
  constexpr bool early_rhs = !Pd && prefetch_rhs(dim, k, Plan::wide), early_out = !Pd && prefetch_out(dim, k, Plan::wide);
  // (a pointer stepped along the column: one 64-bit add per point, where indexing it by z
  // gave every load its own multiply and reloads of src and gz)
  auto load_column = [&](const PlanePoint &q, const Number *src, Elem(&dst)[mz]) {
#pragma unroll
    for (int w = 0; w < W; ++w) {
      const long c = q.active ? corner_of(q.g, w) : -1;
      const Number *col = src + (c < 0 ? 0 : c + (q.x + 1) * gx + (q.y + 1) * gy + (dim == 3 ? gz : 0));
#pragma unroll
      for (int z = 0; z < mz; ++z, col += gz) lane(dst[z], w) = c < 0 ? Number(0) : *col;
    }
  };

  if (!a.given) {
    // Closure values, zero on the domain boundary (Boundary: x_I is never read). Only a
    // closure that reaches the boundary tests its points; where tuning.hpp's interior_gather
    // says so, the others (all but a thin shell of patches) take a copy loop without any test,
    // whose copies need no zero-fill predicate either.
    auto inner = [](int xa, int yb) { return xa > 0 && xa < n - 1 && yb > 0 && yb < n - 1; };
    auto interior = [](bool inner_xy, int zc) { return inner_xy && (dim == 2 || (zc > 0 && zc < n - 1)); };
    auto reaches = [&](int w) {
      return box.on_boundary(i0[w], j0[w], l0[w]) || box.on_boundary(i0[w] + n - 1, j0[w] + n - 1, dim == 3 ? l0[w] + n - 1 : 0);
    };
    // the test of point (xa, yb, zc) of lane w's closure, evaluated per column
    auto column = [&](int w, bool tests, int xa, int yb) {
      const int i = i0[w], j = j0[w], l = l0[w];
      const bool inner_xy = inner(xa, yb);
      const bool load_xy = valid[w] && !(tests && (box.on_boundary_1d(i + xa) || box.on_boundary_1d(j + yb)));
      return [&, inner_xy, load_xy, tests, l](int zc) {
        return load_xy && !(boundary_variant && interior(inner_xy, zc)) && !(dim == 3 && tests && box.on_boundary_1d(l + zc));
      };
    };
    using Gather = RegisterGather<n, n, nz, T, Plan::register_gather ? W : 1, Number>;
    [[maybe_unused]] std::conditional_t<Plan::register_gather, Gather, char> closure;
    if constexpr (Plan::register_gather) {
      bool tests[W];
#pragma unroll
      for (int w = 0; w < W; ++w) tests[w] = reaches(w);
      closure.load(t, a.x, base, gy, gz, [&](int w, int xa, int yb) { return column(w, tests[w], xa, yb); });
    } else
#pragma unroll
      for (int w = 0; w < W; ++w) {
        const bool ok = valid[w], tests = reaches(w);
        Number *const dst = &lane(X0[MapX::at(pib, 0, 0, 0)], w); // (compact == padded layout)
        if (interior_gather(dim, k, Plan::is_double) && ok && !tests)
          gather_box<Plan::async, n, n, nz, T, false, n, n * n, W>(t, dst, a.x, base[w], gy, gz, [&](int xa, int yb) {
            const bool inner_xy = inner(xa, yb);
            return [=](int zc) { return !(boundary_variant && interior(inner_xy, zc)); };
          });
        else
          gather_box<Plan::async, n, n, nz, T, false, n, n * n, W>(t, dst, a.x, base[w], gy, gz,
                                                                    [&](int xa, int yb) { return column(w, tests, xa, yb); });
      }
    // rhs at the residual stage's column: with the closure's copies in flight (Packed:
    // after the barrier that publishes the corners)
    Elem rhs_col[mz];
    auto load_rhs_column = [&] {
      if constexpr (early_rhs)
        load_column(plane_point<m, m, T, P, Pk, lay.swap[dim == 3 ? ResidualZ : ResidualY]>(tid, 0), a.rhs, rhs_col);
    };
    if constexpr (!Pk) load_rhs_column();
    fill_inverse_table();
    if constexpr (Plan::register_gather)
      closure.store(t, X0 + MapX::at(pib, 0, 0, 0), [](int x, int y, int z) { return x + y * n + z * n * n; });
    else wait_copies<Plan::async>();
    __syncthreads();
    if constexpr (Pk) load_rhs_column();
    // a = M_0 x, c = K_0 x: (m, n, nz) each. The residual contractions pass Band: the
    // patch rows vanish between cells, and where contract() unrolls the rows (by lines,
    // along z) it skips those entries (common.cuh, for_each_input).
    auto st_ac = [&](const Elem *acc, int, int, int, int o, int) { a0[o] = acc[0]; c0[o] = acc[1]; };
    if (boundary_variant) {
      // x is zero inside the closure: lines (y, z) interior in both have only the two end
      // points nonzero (paper eq. 4.1/4.2, A^{IB} terms with M_0^{IB}, A_0^{IB}).
      constexpr int rounds = (m * n + T - 1) / T; // m x n lines over T threads (two with (2k-1)^2)
      const Elem *const X = X0 + MapX::at(pib, 0, 0, 0);
      Elem *const ap = a0 + MapAC::at(pib, 0, 0, 0), *const cp = c0 + MapAC::at(pib, 0, 0, 0);
#pragma unroll
      for (int r = 0; r < rounds; ++r) {
        const int tt = t + r * T;
        if (tt >= m * n) break;
        const int xo = tt % m, y = tt / m;
#pragma unroll
        for (int z = 0; z < nz; ++z) {
          const Elem *line = X + MapX::at(0, 0, y, z);
          Elem sa = 0, sc = 0;
          const bool face = y == 0 || y == n - 1 || (dim == 3 && (z == 0 || z == n - 1));
          if (face) {
#pragma unroll
            for (int kk = 0; kk < n; ++kk) {
              sa += Mr[xo * n + kk] * line[kk];
              sc += Kr[xo * n + kk] * line[kk];
            }
          } else {
            sa = Mr[xo * n] * line[0] + Mr[xo * n + n - 1] * line[n - 1];
            sc = Kr[xo * n] * line[0] + Kr[xo * n + n - 1] * line[n - 1];
          }
          const int o = MapAC::at(0, xo, y, z);
          ap[o] = sa;
          cp[o] = sc;
        }
      }
    } else {
      contract<0, n, n, nz, m, 2, 1, 2, Pd, n, T, false, P, PS, Pk, Ln, true, MapX, MapAC, lay.swap[ResidualX]>(
        tid, {Mx, Kx}, {X0}, [](Elem *acc, const Number *mv, const Elem *iv) {
          acc[0] += mv[0] * iv[0];
          acc[1] += mv[1] * iv[0];
        }, st_ac);
    }
    __syncthreads();
    // rhs at interior point (x, y, z) of patch g, 0 for a missing patch: the thread's own
    // column (prefetched), or loaded (Padded)
    auto rhs_at = [&](int g, int x, int y, int z) {
      if constexpr (early_rhs) return rhs_col[z];
      else {
        Elem r;
#pragma unroll
        for (int w = 0; w < W; ++w) {
          const long c = corner_of(g, w);
          lane(r, w) = c < 0 ? Number(0) : a.rhs[c + (x + 1) * gx + (y + 1) * gy + (dim == 3 ? (z + 1) * gz : 0)];
        }
        return r;
      }
    };
    // rhs - A x at an interior point, from the contraction's A x (reference: A^ x)
    auto residual = [&](Elem rhs, Elem Ax) {
      if constexpr (Plan::reference) return rhs - a.op_scale * Ax;
      else return rhs - Ax;
    };
    if constexpr (dim == 2) {
      // r = rhs_I - M_1 c - K_1 a
      contract<1, m, n, 1, m, 2, 2, 1, Pd, n, T, false, P, PS, Pk, false, true, MapAC, MapR, lay.swap[ResidualY]>(
        tid, {Mr, Kr}, {c0, a0}, SumOfTwo<Plan::chained>{},
        [&](const Elem *acc, int x, int y, int z, int o, int g) { r0[o] = residual(rhs_at(g, x, y, z), acc[0]); });
    } else {
      // u = M_1 c + K_1 a, v = M_1 a: (m, m, n), in place over a, c (default layout).
      contract<1, m, n, nz, m, 2, 2, 2, Pd, n, T, lay.uv_in_place, P, PS, Pk, Ln, true, MapAC, MapUV, lay.swap[ResidualY]>(
        tid, {Mx, Kx}, {c0, a0}, SumOfTwoAndMass<Plan::chained>{},
        [&](const Elem *acc, int, int, int, int o, int) { u0[o] = acc[0]; v0[o] = acc[1]; });
      __syncthreads();
      // r = rhs_I - M_2 u - K_2 v (Rz: S^T_z r, on the thread's column)
      auto residual_z = [&](auto store) {
        contract<2, m, m, nz, m, 2, 2, 1, Pd, n, T, false, P, PS, Pk, false, true, MapUV, MapR, lay.swap[ResidualZ]>(
          tid, {Mz, Kz}, {u0, v0}, SumOfTwo<Plan::chained>{}, store);
      };
      if constexpr (Rz)
        residual_z(ColumnStore{[&](const auto &acc, int x, int y, int g) {
          Elem r[mz], s[mz][1];
#pragma unroll
          for (int z = 0; z < mz; ++z) r[z] = residual(rhs_at(g, x, y, z), acc[z][0]);
          if (a.dense)
#pragma unroll
            for (int z = 0; z < mz; ++z) s[z][0] = r[z];
          else transpose_z(r, s);
#pragma unroll
          for (int z = 0; z < mz; ++z) r0[MapR::at(g, x, y, z)] = s[z][0];
        }});
      else residual_z([&](const Elem *acc, int x, int y, int z, int o, int g) { r0[o] = residual(rhs_at(g, x, y, z), acc[0]); });
    }
  } else {
    // Given residual: r = rhs_I.
    Elem *const r = r0 + MapR::at(pib, 0, 0, 0);
    if constexpr (Plan::register_gather) {
      long interior[W]; // the first interior point of each patch
#pragma unroll
      for (int w = 0; w < W; ++w) interior[w] = base[w] + gx + gy + (dim == 3 ? gz : 0);
      RegisterGather<m, m, mz, T, W, Number> given;
      given.load(t, a.rhs, interior, gy, gz, [&](int w, int, int) { return [ok = valid[w]](int) { return ok; }; });
      fill_inverse_table();
      given.store(t, r, [](int x, int y, int z) { return MapR::at(0, x, y, z); });
    } else if constexpr (Rz) {
      // The thread's z column through registers (its loads, then the inverse table while
      // they are in flight), S^T_z (not for the dense inverse), one store per point.
      static_assert(dim == 3, "patch_kernel: the solve in registers is 3D");
      const int xa = t % m, yb = t / m;
      Elem col[mz];
      if (t < m * m)
#pragma unroll
        for (int w = 0; w < W; ++w) {
          const Number *src = a.rhs + (valid[w] ? base[w] + (xa + 1) * gx + (yb + 1) * gy + gz : 0);
#pragma unroll
          for (int zc = 0; zc < mz; ++zc, src += gz) lane(col[zc], w) = valid[w] ? *src : Number(0);
        }
      fill_inverse_table();
      if (t < m * m) {
        Elem s[mz][1];
        if (a.dense)
#pragma unroll
          for (int zc = 0; zc < mz; ++zc) s[zc][0] = col[zc];
        else transpose_z(col, s);
#pragma unroll
        for (int zc = 0; zc < mz; ++zc) r[MapR::at(0, xa, yb, zc)] = s[zc][0];
      }
    } else {
      fill_inverse_table();
      for (int p = t; p < m * m; p += T) { // a point (x, y) of the interior plane and its z column
        const int xa = p % m, yb = p / m;
#pragma unroll
        for (int w = 0; w < W; ++w) {
          const long src = base[w] + (xa + 1) * gx + (yb + 1) * gy + (dim == 3 ? gz : 0);
#pragma unroll
          for (int zc = 0; zc < mz; ++zc) copy_or_zero<Plan::async>(&lane(r[MapR::at(0, xa, yb, zc)], w), a.rhs, src + zc * gz, valid[w]);
        }
      }
      wait_copies<Plan::async>();
    }
  }
  __syncthreads();

  // out_I (+)= f delta[j][0] at the interior points (x, y, z + j) of patch g, all loads of
  // out before the first store (one global latency per column, not one per point).
  auto write_column = [&](int g, int x, int y, int z, const auto &delta, Number f, const auto &old_at) {
    constexpr int L = std::extent_v<std::remove_reference_t<decltype(delta)>>;
    const long offset = (x + 1) * gx + (y + 1) * gy + (dim == 3 ? (z + 1) * gz : 0);
    long c[W];
#pragma unroll
    for (int w = 0; w < W; ++w) c[w] = corner_of(g, w);
    if (boundary_variant) {
#pragma unroll
      for (int w = 0; w < W; ++w)
        if (c[w] >= 0)
#pragma unroll
          for (int j = 0; j < L; ++j) a.out[c[w] + offset + j * gz] = f * lane(delta[j][0], w);
    } else if (a.atomic) {
#pragma unroll
      for (int w = 0; w < W; ++w)
        if (c[w] >= 0)
#pragma unroll
          for (int j = 0; j < L; ++j) atomicAdd(a.out + c[w] + offset + j * gz, (a.scale * f) * lane(delta[j][0], w));
    } else {
      Number old[W][L];
#pragma unroll
      for (int w = 0; w < W; ++w)
        if (c[w] >= 0)
#pragma unroll
          for (int j = 0; j < L; ++j) old[w][j] = old_at(a.out + c[w] + offset, j, w);
#pragma unroll
      for (int w = 0; w < W; ++w)
        if (c[w] >= 0)
#pragma unroll
          for (int j = 0; j < L; ++j) a.out[c[w] + offset + j * gz] = old[w][j] + (a.scale * f) * lane(delta[j][0], w);
    }
  };

  auto load_old = [&](const Number *o, int j, int) { return o[j * gz]; };
  if (a.dense) {
    constexpr int N = m * m * mz;
    const Number *D = a.p.dense_inverse;
    const Elem *r = r0 + MapR::at(pib, 0, 0, 0);
    for (int i = t; i < N; i += T) {
      Elem s = 0;
      for (int j = 0; j < N; ++j) {
        const int ja = j % m, jb = (j / m) % m, jc = j / (m * m);
        s += D[(long)i * N + j] * r[MapR::at(0, ja, jb, jc)];
      }
      const Elem d[1][1] = {{s}};
      write_column(pib, i % m, (i / m) % m, i / (m * m), d, Number(1), load_old); // D is the level's inverse
    }
    return;
  }

  // Fast diagonalization: (S x S x S) Lambda^{-1} (S^T x S^T x S^T) r.
  auto one = [](Elem *acc, const Number *mv, const Elem *iv) { acc[0] += mv[0] * iv[0]; };
  auto to = [](Elem *dst) { return [dst](const Elem *acc, int, int, int, int o, int) { dst[o] = acc[0]; }; };
  // v / (lam_x + lam_y [+ lam_z]) at point (x, y, z)
  auto divide = [lam, inverse](Elem v, int x, int y, int z) {
    if constexpr (Plan::inverse_table) return v * inverse[x + m * (y + m * z)];
    else return v / (lam[x] + lam[y] + (dim == 3 ? lam[z] : Number(0)));
  };
  auto divide_to = [&](Elem *dst) { return [dst, divide](const Elem *acc, int x, int y, int z, int o, int) { dst[o] = divide(acc[0], x, y, z); }; };
  const Number solve_scale = Plan::reference ? a.solve_scale : Number(1);
  // out at the final stage's column (a read-modify-write there), during the local solve
  Elem old_col[mz];
  if constexpr (early_out)
    if (!boundary_variant && !a.atomic)
      load_column(plane_point<m, m, T, P, Pk, dim == 3 ? lay.swap[SolveStage0 + 5] : false>(tid, 0), a.out, old_col);
  auto prefetched_old = [&](const Number *o, int j, int w) {
    if constexpr (early_out) return Number(lane(old_col[j], w));
    else return load_old(o, j, w);
  };
  const ColumnStore final_write{[&](const auto &acc, int x, int y, int g) { write_column(g, x, y, 0, acc, solve_scale, prefetched_old); }};
  constexpr int F = SolveStage0; // the local solve's stages: S^T x, S^T y, [S^T z,] S x, [S y,] last
                                 // (Rz: F, F + 1, F + 3, F + 5 with their swaps)
  contract<0, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, Ln, false, MapR, MapS0, lay.swap[F], 0, EOSt>(tid, {Stx}, {r0}, one, to(s0));
  __syncthreads();
  if constexpr (dim == 2) {
    contract<1, m, m, 1, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, false, false, MapS0, MapS1>(tid, {St}, {s0}, one, divide_to(s1));
    __syncthreads();
    contract<0, m, m, 1, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, false, false, MapS1, MapS2>(tid, {S}, {s1}, one, to(s2));
    __syncthreads();
    contract<1, m, m, 1, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, false, false, MapS2>(tid, {S}, {s2}, one, final_write);
  } else if constexpr (Rz) {
    // r0 held S^T_z r, s0 = S^T_x S^T_z r. A y line: S^T_y, the division, S_y (the thread's
    // own line, in registers); then S_x and, into out, S_z.
    contract<1, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, Ln, false, MapS0, MapS1, lay.swap[F + 1]>(
      tid, {Stx}, {s0}, LineAt{[&](const auto &in, auto &acc, int x, int z, int) {
        Elem t[m][1], u[m];
        contract_in_registers<EOSt, m>(Stx, in[0], t);
#pragma unroll
        for (int y = 0; y < m; ++y) u[y] = divide(t[y][0], x, y, z);
        contract_in_registers<EOS, m>(Sx, u, acc);
      }},
      to(s1));
    __syncthreads();
    contract<0, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, Ln, false, MapS1, MapS2, lay.swap[F + 3], 0, EOS>(tid, {Sx}, {s1}, one, to(s2));
    __syncthreads();
    contract<2, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, false, false, MapS2, MapS2, lay.swap[F + 5], 0, EOS>(tid, {Sz}, {s2}, one,
                                                                                                             final_write);
  } else {
    contract<1, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, Ln, false, MapS0, MapS1, lay.swap[F + 1], 0, EOSt>(tid, {Stx}, {s0}, one, to(s1));
    __syncthreads();
    contract<2, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, false, false, MapS1, MapS2, lay.swap[F + 2], 0, EOSt>(tid, {Stz}, {s1}, one,
                                                                                                              divide_to(s2));
    __syncthreads();
    contract<0, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, Ln, false, MapS2, MapS3, lay.swap[F + 3], 0, EOS>(tid, {Sx}, {s2}, one, to(s3));
    __syncthreads();
    contract<1, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, Ln, false, MapS3, MapS4, lay.swap[F + 4], 0, EOS>(tid, {Sx}, {s3}, one, to(s4));
    __syncthreads();
    contract<2, m, m, mz, m, 1, 1, 1, Pd, n, T, false, P, PS, Pk, false, false, MapS4, MapS4, lay.swap[F + 5], 0, EOS>(tid, {Sz}, {s4}, one,
                                                                                                             final_write);
  }
}

// point_solve: the correction A_vv^{-1} r of a Q1 vertex patch (dense, or the fast
// diagonalization's scalar (S S S) (S^T S^T S^T) r / (d lambda)).
template <int dim, typename Number>
__device__ __forceinline__ Number point_solve(const PatchArgs<Number> &a, Number r)
{
  if (a.dense) return a.p.dense_inverse[0] * r;
  const Number s = a.p.eigenvectors[0], st = a.p.eigenvectors_t[0];
  Number delta = st * r;
  delta = st * delta;
  if (dim == 3) delta = st * delta;
  delta /= dim * a.p.eigenvalues[0];
  delta = s * delta;
  delta = s * delta;
  if (dim == 3) delta = s * delta;
  return delta;
}

// correct_point: the correction of the patch of vertex (i0 + 1, j0 + 1, l0 + 1), the body
// of patch_point_kernel.
template <int dim, typename Number, bool boundary_variant>
__device__ __forceinline__ void correct_point(const PatchArgs<Number> &a, int i0, int j0, int l0, bool given)
{
  const Box &box = a.box;
  const long gy = box.gm[0], gz = (long)box.gm[0] * box.gm[1];
  const long base = box.local_index(i0, j0, l0), center = base + 1 + gy + (dim == 3 ? gz : 0);
  Number r;
  if (given) r = a.rhs[center];
  else {
    Number M[3], K[3];
#pragma unroll
    for (int q = 0; q < 3; ++q) {
      M[q] = a.p.mass_rows[q];
      K[q] = a.p.stiffness_rows[q];
    }
    constexpr int nz = dim == 3 ? 3 : 1;
    Number ax = 0; // sum over z of M_2 u + K_2 v (3D) or M_1 c + K_1 a (2D)
#pragma unroll
    for (int z = 0; z < nz; ++z) {
      Number u = 0, v = 0; // u = M_1 c + K_1 a, v = M_1 a on this z line
#pragma unroll
      for (int y = 0; y < 3; ++y) {
        Number sa = 0, sc = 0; // a = M_0 x, c = K_0 x on this x line
#pragma unroll
        for (int x = 0; x < 3; ++x) {
          const bool vertex = x == 1 && y == 1 && (dim == 2 || z == 1);
          Number xv = 0;
          if (!(boundary_variant && vertex) && !box.on_boundary(i0 + x, j0 + y, l0 + z)) xv = a.x[base + x + y * gy + z * gz];
          sa += M[x] * xv;
          sc += K[x] * xv;
        }
        u += M[y] * sc + K[y] * sa;
        v += M[y] * sa;
      }
      ax += dim == 3 ? M[z] * u + K[z] * v : u;
    }
    r = a.rhs[center] - ax;
  }
  const Number delta = point_solve<dim>(a, r);
  Number *o = a.out + center;
  if (boundary_variant) *o = delta;
  else if (a.atomic) atomicAdd(o, a.scale * delta);
  else *o += a.scale * delta;
}

// k = 1, one thread per patch (the one-thread-per-point layout of paper Fig. 5): the patch
// of a Q1 vertex has one interior point, the vertex itself, and 3^d closure points, so the
// local residual is a 3^d-point sum factorization in registers and the fast
// diagonalization is a scalar, (S S S) (S^T S^T S^T) r / (d lambda). Same arguments and
// results as patch_kernel<dim, 1, ...> (Fused: residual from the closure, or Given;
// Boundary: the vertex value is never read and is assigned); no shared memory.
template <int dim, typename Number, bool boundary_variant>
__global__ void __launch_bounds__(128) patch_point_kernel(const PatchArgs<Number> a)
{
  const long pid = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (pid >= a.npatches) return;
  int px, py, pz;
  split3((unsigned)pid, a.split[0], a.split[1], px, py, pz);
  correct_point<dim, Number, boundary_variant>(a, a.first[0] + a.step * px - 1, a.first[1] + a.step * py - 1,
                                               dim == 3 ? a.first[2] + a.step * pz - 1 : 0, a.given);
}

// k = 1, two colors that differ in the x parity only (c, then c ^ 1) in one launch, in
// place. Their vertices alternate along each x row of the colors' (y, z) parity, and a
// vertex of c ^ 1 couples to vertices of c only along that row (its y, z neighbours have
// the other parities and are not written in this launch). Lane t of a warp holds the
// window of x positions X0 = xs + 64 w + 2 t, X0 + 1 on the 3^(d-1) closure lines of its
// row (two loads per line) and takes the third position of each 3-point line from the
// neighbouring lane (a shuffle); phase 1 corrects the first color's vertex of the window
// (mode a.given), phase 2 the second color's with the first color's new values (Local).
// The edge lanes also load the column just beyond the warp; of it only the centre line
// changes (phase 1), and warps of one row exchange those values through shared memory
// after a block barrier, which also orders every load of the row before any store. The same
// updates as two launches of patch_point_kernel; the local residual is the 3^d-point
// stencil summed by symmetry classes, sum_j c_j (sum of the neighbours with j off-centre
// coordinates), from per-line end sums (left + right) and centres.
template <typename Number>
struct RowPairArgs {
  int xs;                // even; the first window position of a row
  int first_x2, count_x2; // the second color's vertices along x: first_x2 + 2 i, i < count_x2
  int warps_per_row, rows_per_block;
  int off[9];  // closure line L = 3 (dz + 1) + dy + 1 relative to the centre line: dy gm[0] + dz gm[0] gm[1]
  Number c[4]; // stencil weights of the neighbours with 0..dim off-centre coordinates
};

// sum_j c_j S_j over a window column: m[L], e[L] the centre and end sum of closure line L
// (L = 3 (dz + 1) + dy + 1), without the vertex itself in the Boundary variant.
template <int dim, bool skip_centre, typename Number>
__device__ __forceinline__ Number point_stencil(const Number (&c)[4], const Number *m, const Number *e)
{
  Number s;
  if constexpr (dim == 3) {
    const Number fm = (m[1] + m[7]) + (m[3] + m[5]), fe = (e[1] + e[7]) + (e[3] + e[5]);
    const Number cm = (m[0] + m[8]) + (m[2] + m[6]), ce = (e[0] + e[8]) + (e[2] + e[6]);
    s = c[1] * (e[4] + fm) + c[2] * (fe + cm) + c[3] * ce;
    if (!skip_centre) s += c[0] * m[4];
  } else {
    s = c[1] * (e[1] + (m[0] + m[2])) + c[2] * (e[0] + e[2]);
    if (!skip_centre) s += c[0] * m[1];
  }
  return s;
}

// odd: the first color's vertices have odd x (window position X0 + 1), else even (X0).
template <int dim, typename Number, bool boundary_variant, bool odd>
__global__ void __launch_bounds__(512) patch_row_pair_kernel(const PatchArgs<Number> a, const RowPairArgs<Number> rp)
{
  constexpr int NL = dim == 3 ? 9 : 3, C = NL / 2;
  __shared__ Number edge[16][2]; // per warp: its lane 0's w0 and lane 31's w1 on the centre line after phase 1
  const Box &box = a.box;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const bool one_row = rp.rows_per_block == 1; // else one warp per row
  const int wrow = one_row ? warp : 0;
  const unsigned row = blockIdx.x * (unsigned)rp.rows_per_block + (one_row ? 0 : warp);
  const bool row_ok = row < (unsigned)a.npatches; // npatches: the rows
  unsigned qz = 0, ry = 0;
  if (row_ok) a.split[1].divmod(row, qz, ry);
  const int py = (int)ry, pz = (int)qz;
  const int y = a.first[1] + 2 * py, z = dim == 3 ? a.first[2] + 2 * pz : 0;
  const int X0 = rp.xs + 64 * wrow + 2 * lane;
  const long line0 = box.local_index(0, y, z);
  const Number *window = a.x + (line0 + X0); // x at X0 on the centre line; line L at rp.off[L]
  bool line_ok[NL], pos_ok[4]; // boundary and outside points read as zero
  const bool y_lo = y - 1 != 0, y_hi = y + 1 != box.n - 1, z_lo = dim == 2 || z - 1 != 0, z_hi = dim == 2 || z + 1 != box.n - 1;
#pragma unroll
  for (int L = 0; L < NL; ++L) {
    const int dy = L % 3 - 1, dz = dim == 3 ? L / 3 - 1 : 0;
    line_ok[L] = row_ok && (dy >= 0 || y_lo) && (dy <= 0 || y_hi) && (dz >= 0 || z_lo) && (dz <= 0 || z_hi);
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) pos_ok[j] = X0 - 1 + j >= 1 && X0 - 1 + j <= box.n - 2;
  auto load = [&](int L, int j) { return line_ok[L] && pos_ok[j] ? window[rp.off[L] + j - 1] : Number(0); }; // x at X0 - 1 + j
  // the columns beyond the warp's edges: lane 0 reads X0 - 1, lane 31 X0 + 2, with the
  // window (early) or in the phases that use them (tuning.hpp, pair_early_edges)
  constexpr bool early = pair_early_edges(std::is_same_v<Number, double>);
  const bool edge_ok = lane == 0 ? pos_ok[0] : lane == 31 && pos_ok[3];
  const int edge_at = lane == 0 ? -1 : 2;
  Number w0[NL], w1[NL], ex[NL], nb[NL], m[NL], e[NL];
#pragma unroll
  for (int L = 0; L < NL; ++L) {
    w0[L] = load(L, 1);
    w1[L] = load(L, 2);
    if constexpr (early) ex[L] = line_ok[L] && edge_ok ? window[rp.off[L] + edge_at] : Number(0);
  }
  const int P1 = X0 + (odd ? 1 : 0), P2 = X0 + (odd ? 0 : 1);
  const bool active1 = row_ok && P1 >= a.first[0] && P1 < a.first[0] + 2 * a.count[0];
  const bool active2 = row_ok && P2 >= rp.first_x2 && P2 < rp.first_x2 + 2 * rp.count_x2;
  const Number b1 = active1 ? a.rhs[line0 + P1] : Number(0), b2 = active2 ? a.rhs[line0 + P2] : Number(0);
  auto correct = [&](Number &v, Number b, bool given) {
    Number r = b;
    if (!given) r -= point_stencil<dim, boundary_variant>(rp.c, m, e);
    const Number delta = point_solve<dim>(a, r);
    v = boundary_variant ? delta : v + a.scale * delta;
  };

  // phase 1: the vertex at P1; its third neighbour (left of X0 or right of X0 + 1) from the adjacent lane
#pragma unroll
  for (int L = 0; L < NL; ++L) nb[L] = odd ? __shfl_down_sync(0xffffffffu, w0[L], 1) : __shfl_up_sync(0xffffffffu, w1[L], 1);
  if (lane == (odd ? 31 : 0)) {
#pragma unroll
    for (int L = 0; L < NL; ++L) nb[L] = early ? ex[L] : load(L, odd ? 3 : 0);
  }
#pragma unroll
  for (int L = 0; L < NL; ++L) {
    m[L] = odd ? w1[L] : w0[L];
    e[L] = nb[L] + (odd ? w0[L] : w1[L]);
  }
  if (active1) correct(odd ? w1[C] : w0[C], b1, a.given);

  // exchange of the warps' edge values of the centre line; all loads of the row are done
  if (rp.warps_per_row > 1) {
    if (lane == 0) edge[warp][0] = w0[C];
    if (lane == 31) edge[warp][1] = w1[C];
    __syncthreads();
  }

  // phase 2: the vertex at P2, with the first color's new values
#pragma unroll
  for (int L = 0; L < NL; ++L) nb[L] = odd ? __shfl_up_sync(0xffffffffu, w1[L], 1) : __shfl_down_sync(0xffffffffu, w0[L], 1);
  if (lane == (odd ? 0 : 31)) {
#pragma unroll
    for (int L = 0; L < NL; ++L) nb[L] = early ? ex[L] : load(L, odd ? 0 : 3); // lines other than the centre do not change
  }
  // the centre line's value beyond the edge: the neighbouring warp's after its phase 1, or
  // beyond the row's vertices (unchanged)
  if (lane == (odd ? 0 : 31) && (odd ? wrow > 0 : wrow + 1 < rp.warps_per_row)) nb[C] = edge[odd ? warp - 1 : warp + 1][odd ? 1 : 0];
#pragma unroll
  for (int L = 0; L < NL; ++L) {
    m[L] = odd ? w0[L] : w1[L];
    e[L] = nb[L] + (odd ? w1[L] : w0[L]);
  }
  if (active2) correct(odd ? w0[C] : w1[C], b2, false);

  Number *xo = a.out + line0;
  if (odd ? active2 : active1) xo[X0] = w0[C];
  if (odd ? active1 : active2) xo[X0 + 1] = w1[C];
}

// Patches of the color along one direction: vertices first + step p, p < count.
inline void color_range(const Box &box, int d, int color, int &first, int &count)
{
  const int pb = box.patch_begin(d), pe = box.patch_end(d);
  if (color < 0 || d >= box.dim) {
    first = pb;
    count = pe > pb ? pe - pb : 0;
    return;
  }
  const int bit = (color >> d) & 1;
  first = pb + ((bit - pb) & 1);
  count = pe > first ? (pe - first + 1) / 2 : 0;
}

template <int dim, int k, typename Number, SmootherKernel V>
void launch_patch_variant(const PatchArgs<Number> &args, cudaStream_t stream)
{
  using Plan = PatchPlan<dim, k, Number, V>;
  static int configured = -1;
  auto kernel = patch_kernel<dim, k, Number, V>;
  prepare_shared(kernel, Plan::smem, "patch_correct", configured);
  const long blocks = (args.npatches + Plan::P * Plan::W - 1) / (Plan::P * Plan::W);
  typename Plan::Matrices lm{};
  PatchArgs<Number> a = args;
  if constexpr (Plan::launch_mats) {
    constexpr int m = Plan::m, n = Plan::n, sizes[4] = {m * n, m * n, m * m, m * m};
    const Number *const *host = args.p.host_rows_and_eigenvectors;
    if (!host[0] || !host[1] || !host[2] || !host[3])
      throw std::invalid_argument("vpatch cuda: patch_correct needs the host copies of the patch tables (LevelTables::device_patch_view)");
    if constexpr (Plan::reference) {
      const double op = std::pow(reference_cell_size<k>(host[0], host[1]), dim - 2);
      a.op_scale = (Number)op;
      a.solve_scale = (Number)(1 / op);
    } else {
      for (int i = 0, o = 0; i < 4; o += sizes[i], ++i) std::copy(host[i], host[i] + sizes[i], lm.v + o);
    }
    if (Plan::evenodd && !has_eigenvector_parities(host[2], m, eigenvector_odd_columns<k>(), 1e-10))
      throw std::invalid_argument("vpatch cuda: patch_correct: the level's eigenvectors are not even or odd as the reference "
                                  "tables' (uniform cells expected)");
  }
  kernel<<<(unsigned)blocks, Plan::T * Plan::P, Plan::smem, stream>>>(a, lm);
  check_launch("patch_correct kernel launch");
}

template <int dim, int k, typename Number>
void launch_patch(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual mode, int color, Number scale,
                  const Number *rhs, const Number *x, Number *out, SmootherKernel kernel, cudaStream_t stream)
{
  PatchArgs<Number> args{};
  args.box = box;
  args.p = p;
  args.dense = solver == LocalSolver::Dense;
  args.given = mode == PatchResidual::Given;
  args.atomic = color < 0;
  args.scale = scale;
  args.rhs = rhs;
  args.x = x;
  args.out = out;
  args.step = color < 0 ? 1 : 2;
  args.npatches = 1;
  for (int d = 0; d < 3; ++d) {
    color_range(box, d, color, args.first[d], args.count[d]);
    args.npatches *= args.count[d];
  }
  if (args.npatches <= 0) return;
  if (args.npatches > Divider::max_dividend) throw std::invalid_argument("vpatch cuda: patch_correct: more than 2^31 - 1 patches in one launch");
  args.split[0] = Divider(args.count[0]);
  args.split[1] = Divider(args.count[1]);
  if (kernel == SmootherKernel::Basic) {
    launch_patch_variant<dim, k, Number, SmootherKernel::Basic>(args, stream);
  } else if constexpr (k == 1) {
    // Fused and Boundary use the one-thread-per-patch kernel; Basic stays the block-layout reference.
    const int threads = 128;
    const long blocks = (args.npatches + threads - 1) / threads;
    if (kernel == SmootherKernel::Boundary) patch_point_kernel<dim, Number, true><<<(unsigned)blocks, threads, 0, stream>>>(args);
    else patch_point_kernel<dim, Number, false><<<(unsigned)blocks, threads, 0, stream>>>(args);
    check_launch("patch_correct (k = 1) kernel launch");
  } else if (kernel == SmootherKernel::Boundary) {
    launch_patch_variant<dim, k, Number, SmootherKernel::Boundary>(args, stream);
  } else {
    launch_patch_variant<dim, k, Number, SmootherKernel::Fused>(args, stream);
  }
}

// k = 1: colors c, then c ^ 1, in place (x == out), by patch_row_pair_kernel; `first` is
// the mode of color c (Given: x is zero on its vertices), c ^ 1 runs Local. Rows of at most
// 2 color_pair_max_threads() vertices (tuning.hpp, color_pairs). Returns false, launching
// nothing, where the stencil's symmetry classes do not hold (1D rows M_0 != M_2 or
// K_0 != K_2, not on a uniform mesh): the caller then runs the colors one by one.
template <int dim, typename Number>
bool launch_patch_pair(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual first, int color, Number scale,
                       const Number *rhs, Number *x, SmootherKernel kernel, cudaStream_t stream)
{
  const Number *M = p.host_rows_and_eigenvectors[0], *K = p.host_rows_and_eigenvectors[1];
  if (!M || !K) throw std::invalid_argument("vpatch cuda: patch_correct pair needs the host copies of the patch rows (LevelTables::device_patch_view)");
  if (M[0] != M[2] || K[0] != K[2]) return false;
  PatchArgs<Number> args{};
  args.box = box;
  args.p = p;
  args.dense = solver == LocalSolver::Dense;
  args.given = first == PatchResidual::Given;
  args.scale = scale;
  args.rhs = rhs;
  args.x = x;
  args.out = x;
  args.step = 2;
  for (int d = 0; d < 3; ++d) color_range(box, d, color, args.first[d], args.count[d]);
  RowPairArgs<Number> rp{};
  color_range(box, 0, color ^ 1, rp.first_x2, rp.count_x2);
  const long rows = (long)args.count[1] * args.count[2];
  if (rows <= 0 || box.patch_end(0) <= box.patch_begin(0)) return true;
  rp.xs = box.patch_begin(0) & ~1; // windows over the row's vertices [patch_begin, patch_end)
  rp.warps_per_row = (box.patch_end(0) - 1 - rp.xs) / 64 + 1;
  if (rp.warps_per_row * 32 > color_pair_max_threads()) throw std::invalid_argument("vpatch cuda: patch_correct pair: rows too long");
  rp.rows_per_block = rp.warps_per_row == 1 ? 4 : 1; // coarse levels: a warp per row, four to a block
  if ((long)box.gm[0] * box.gm[1] + box.gm[0] >= std::numeric_limits<int>::max())
    throw std::invalid_argument("vpatch cuda: patch_correct pair: planes of more than 2^31 points");
  for (int L = 0; L < 9; ++L) rp.off[L] = (L % 3 - 1) * box.gm[0] + (dim == 3 ? (L / 3 - 1) * box.gm[0] * box.gm[1] : 0);
  // weights of the 3^d-point stencil by the number j of off-centre coordinates:
  // c_j = (d - j) K_1 M_1^(d-j-1) M_0^j + j K_0 M_0^(j-1) M_1^(d-j)
  for (int j = 0; j <= dim; ++j) {
    double cj = 0;
    for (int i = 0; i < dim; ++i) { // direction i off-centre for i < j
      double t = i < j ? (double)K[0] : (double)K[1];
      for (int o = 0; o < dim; ++o)
        if (o != i) t *= o < j ? (double)M[0] : (double)M[1];
      cj += t;
    }
    rp.c[j] = (Number)cj;
  }
  if (rows > Divider::max_dividend) throw std::invalid_argument("vpatch cuda: patch_correct pair: too many rows in one launch");
  args.npatches = rows;
  args.split[1] = Divider(args.count[1]);
  const long blocks = (rows + rp.rows_per_block - 1) / rp.rows_per_block;
  const unsigned threads = 32u * rp.warps_per_row * rp.rows_per_block;
  const bool odd = args.first[0] & 1;
  auto launch = [&](auto kernel) { kernel<<<(unsigned)blocks, threads, 0, stream>>>(args, rp); };
  if (kernel == SmootherKernel::Boundary) {
    if (odd) launch(patch_row_pair_kernel<dim, Number, true, true>);
    else launch(patch_row_pair_kernel<dim, Number, true, false>);
  } else {
    if (odd) launch(patch_row_pair_kernel<dim, Number, false, true>);
    else launch(patch_row_pair_kernel<dim, Number, false, false>);
  }
  check_launch("patch_correct (k = 1, color pair) kernel launch");
  return true;
}

} // namespace detail
} // namespace cuda
} // namespace vpatch

#define VPATCH_INSTANTIATE_PATCH_PAIR(dim)                                                                                   \
  template bool vpatch::cuda::detail::launch_patch_pair<dim, float>(const Box &, PatchView<float>, LocalSolver, PatchResidual, \
                                                                    int, float, const float *, float *, SmootherKernel,       \
                                                                    cudaStream_t);                                            \
  template bool vpatch::cuda::detail::launch_patch_pair<dim, double>(const Box &, PatchView<double>, LocalSolver,              \
                                                                     PatchResidual, int, double, const double *, double *,    \
                                                                     SmootherKernel, cudaStream_t);

// Explicit instantiation of launch_patch<dim, k, Number> for Number = float, double.
#define VPATCH_INSTANTIATE_PATCH(dim, k)                                                                                \
  template void vpatch::cuda::detail::launch_patch<dim, k, float>(const Box &, PatchView<float>, LocalSolver,          \
                                                                   PatchResidual, int, float, const float *,           \
                                                                   const float *, float *, SmootherKernel, cudaStream_t); \
  template void vpatch::cuda::detail::launch_patch<dim, k, double>(const Box &, PatchView<double>, LocalSolver,        \
                                                                    PatchResidual, int, double, const double *,        \
                                                                    const double *, double *, SmootherKernel, cudaStream_t);
