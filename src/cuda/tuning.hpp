// Launch-shape table of the CUDA kernels (host and device usable, no CUDA headers):
// patches per thread block of the smoother kernels and cells per block of the cell
// kernels, per (dim, degree, precision). The one place to tune them.
#pragma once

// Every tuned value can be overridden for experiments by compiling with -DVPATCH_<KNOB>=V
// (V >= 0; bench/tune_variant_lib.sh, bench/tune_ppb_build.sh); unset knobs are -1.
#ifndef VPATCH_PPB_3D_K3
#define VPATCH_PPB_3D_K3 -1
#endif
#ifndef VPATCH_PPB_3D_K4
#define VPATCH_PPB_3D_K4 -1
#endif
#ifndef VPATCH_COMPACT_THREADS
#define VPATCH_COMPACT_THREADS -1
#endif
#ifndef VPATCH_PATCH_PAD
#define VPATCH_PATCH_PAD -1
#endif
#ifndef VPATCH_CELL_PAD
#define VPATCH_CELL_PAD -1
#endif
#ifndef VPATCH_PATCH_MIN_BLOCKS
#define VPATCH_PATCH_MIN_BLOCKS -1
#endif
#ifndef VPATCH_PACK
#define VPATCH_PACK -1
#endif
#ifndef VPATCH_GATHER_STAGES
#define VPATCH_GATHER_STAGES -1
#endif
#ifndef VPATCH_GATHER_ROWS
#define VPATCH_GATHER_ROWS -1
#endif
#ifndef VPATCH_GATHER_ROWS_2D
#define VPATCH_GATHER_ROWS_2D -1
#endif
#ifndef VPATCH_LAUNCH_MATRICES
#define VPATCH_LAUNCH_MATRICES -1
#endif
#ifndef VPATCH_PREFETCH_RHS
#define VPATCH_PREFETCH_RHS -1
#endif
#ifndef VPATCH_PREFETCH_OUT
#define VPATCH_PREFETCH_OUT -1
#endif
#ifndef VPATCH_REFERENCE_MATRICES
#define VPATCH_REFERENCE_MATRICES -1
#endif
#ifndef VPATCH_TRANSFER_CELLS
#define VPATCH_TRANSFER_CELLS -1
#endif
#ifndef VPATCH_REFERENCE_TRANSFERS
#define VPATCH_REFERENCE_TRANSFERS -1
#endif
#ifndef VPATCH_TRANSFER_COLUMN
#define VPATCH_TRANSFER_COLUMN -1
#endif
#ifndef VPATCH_TRANSFER_LINES
#define VPATCH_TRANSFER_LINES -1
#endif
#ifndef VPATCH_REFERENCE_OPERATOR
#define VPATCH_REFERENCE_OPERATOR -1
#endif
#ifndef VPATCH_TRANSFER_TILES
#define VPATCH_TRANSFER_TILES -1
#endif
#ifndef VPATCH_TRANSFER_TILE_CHUNK
#define VPATCH_TRANSFER_TILE_CHUNK -1
#endif
#ifndef VPATCH_TRANSFER_PREFETCH
#define VPATCH_TRANSFER_PREFETCH -1
#endif
#ifndef VPATCH_TRANSFER_PREFETCH_R
#define VPATCH_TRANSFER_PREFETCH_R -1
#endif
#ifndef VPATCH_TRANSFER_TILE_FX
#define VPATCH_TRANSFER_TILE_FX -1
#endif
#ifndef VPATCH_TRANSFER_TILE_FY
#define VPATCH_TRANSFER_TILE_FY -1
#endif
#ifndef VPATCH_ASYNC_GATHERS
#define VPATCH_ASYNC_GATHERS -1
#endif
#ifndef VPATCH_REGISTER_GATHER
#define VPATCH_REGISTER_GATHER -1
#endif
#ifndef VPATCH_LINES
#define VPATCH_LINES -1
#endif
#ifndef VPATCH_GATHER_MIN_BLOCKS
#define VPATCH_GATHER_MIN_BLOCKS -1
#endif
#ifndef VPATCH_CORRECTED_RESIDUAL
#define VPATCH_CORRECTED_RESIDUAL -1
#endif
#ifndef VPATCH_GATHER_STAGES_CORRECTED
#define VPATCH_GATHER_STAGES_CORRECTED -1
#endif
#ifndef VPATCH_GATHER_MIN_BLOCKS_CORRECTED
#define VPATCH_GATHER_MIN_BLOCKS_CORRECTED -1
#endif
#ifndef VPATCH_GATHER_SHARED_X
#define VPATCH_GATHER_SHARED_X -1
#endif
#ifndef VPATCH_COLOR_PAIRS
#define VPATCH_COLOR_PAIRS -1
#endif
#ifndef VPATCH_GATHER_CHUNK
#define VPATCH_GATHER_CHUNK -1
#endif
#ifndef VPATCH_GATHER_CHUNK_3D_FLOAT_K3
#define VPATCH_GATHER_CHUNK_3D_FLOAT_K3 -1
#endif
#ifndef VPATCH_GATHER_ROWS_APPLY_3D_FLOAT
#define VPATCH_GATHER_ROWS_APPLY_3D_FLOAT -1
#endif
#ifndef VPATCH_GATHER_ROWS_APPLY_2D_FLOAT
#define VPATCH_GATHER_ROWS_APPLY_2D_FLOAT -1
#endif
#ifndef VPATCH_GATHER_CHUNK_APPLY_FLOAT
#define VPATCH_GATHER_CHUNK_APPLY_FLOAT -1
#endif
#ifndef VPATCH_K1_RESTRICT_CHUNK
#define VPATCH_K1_RESTRICT_CHUNK -1
#endif
#ifndef VPATCH_K1_PROLONG_CHUNK
#define VPATCH_K1_PROLONG_CHUNK -1
#endif
#ifndef VPATCH_PAIR_EARLY_EDGES
#define VPATCH_PAIR_EARLY_EDGES -1
#endif
#ifndef VPATCH_GATHER_KMAX_2D
#define VPATCH_GATHER_KMAX_2D -1
#endif
#ifndef VPATCH_GATHER_EARLY_RHS
#define VPATCH_GATHER_EARLY_RHS -1
#endif
#ifndef VPATCH_GATHER_KMAX_3D
#define VPATCH_GATHER_KMAX_3D -1
#endif
#ifndef VPATCH_GATHER_ADJACENT
#define VPATCH_GATHER_ADJACENT -1
#endif
#ifndef VPATCH_GATHER_PACKED_Z
#define VPATCH_GATHER_PACKED_Z -1
#endif
#ifndef VPATCH_GATHER_WARP_RINGS
#define VPATCH_GATHER_WARP_RINGS -1
#endif
#ifndef VPATCH_GATHER_THREADS
#define VPATCH_GATHER_THREADS -1
#endif
#ifndef VPATCH_PATCH_PAIRS
#define VPATCH_PATCH_PAIRS -1
#endif
#ifndef VPATCH_INTERIOR_GATHER
#define VPATCH_INTERIOR_GATHER -1
#endif
#ifndef VPATCH_CHAINED_SMOOTHER
#define VPATCH_CHAINED_SMOOTHER -1
#endif
#ifndef VPATCH_EVENODD
#define VPATCH_EVENODD -1
#endif
#ifndef VPATCH_FUSED_SOLVE
#define VPATCH_FUSED_SOLVE -1
#endif
#ifndef VPATCH_EVENODD_OPERATOR
#define VPATCH_EVENODD_OPERATOR -1
#endif
#ifndef VPATCH_CELL_COLUMNS
#define VPATCH_CELL_COLUMNS -1
#endif
#ifndef VPATCH_CELL_COLUMNS_3D
#define VPATCH_CELL_COLUMNS_3D -1
#endif
#ifndef VPATCH_CELL_COLUMNS_3D_KMAX
#define VPATCH_CELL_COLUMNS_3D_KMAX -1
#endif
#ifndef VPATCH_CELL_COLUMNS_STAGES_3D
#define VPATCH_CELL_COLUMNS_STAGES_3D -1
#endif
#ifndef VPATCH_CELL_COLUMNS_CHUNK_3D
#define VPATCH_CELL_COLUMNS_CHUNK_3D -1
#endif
#ifndef VPATCH_CELL_COLUMNS_CHUNK
#define VPATCH_CELL_COLUMNS_CHUNK -1
#endif
#ifndef VPATCH_CELL_COLUMNS_THREADS
#define VPATCH_CELL_COLUMNS_THREADS -1
#endif
#ifndef VPATCH_CELL_COLUMNS_STAGED
#define VPATCH_CELL_COLUMNS_STAGED -1
#endif
#ifndef VPATCH_CELL_COLUMNS_EVENODD
#define VPATCH_CELL_COLUMNS_EVENODD -1
#endif
#ifndef VPATCH_CELL_COLUMNS_MIN_BLOCKS
#define VPATCH_CELL_COLUMNS_MIN_BLOCKS -1
#endif
#ifndef VPATCH_CELL_COLUMNS_MIN_BLOCKS_3D
#define VPATCH_CELL_COLUMNS_MIN_BLOCKS_3D -1
#endif
#ifndef VPATCH_CELL_COLUMNS_ZERO_WINDOW
#define VPATCH_CELL_COLUMNS_ZERO_WINDOW -1
#endif

namespace vpatch {
namespace cuda {

// The tuned value, or the override where one was compiled in.
constexpr int tuned(int override_value, int value) { return override_value >= 0 ? override_value : value; }

// Patches per block of the smoother kernels (threads per patch: patch_thread_plane; in
// 3D each thread walks a z column). Several patches per block for low degree (paper Fig.
// 7/8: more patches help for k = 1, 2, a little for k = 3, 4, one patch is best above),
// aiming at 128-256 threads per block. The Basic kernel (padded layouts, 3 (2k+1)^d values per patch) uses the same
// numbers. 3D k = 3, 4 tuned on the H200 (bench/NOTES.md, "Launch-shape tuning, H200" and
// "Interior-plane threads and bank-aligned strides"): k = 3: 5 patches of (2k-1)^2 = 25
// threads (125 threads, 98% of the lanes busy in the 25-point stages); double k = 4: 1
// patch (Fused +11%), float k = 4: 2 patches and a min-blocks hint (patch_min_blocks_per_sm).
//
// Experiments (bench/tune_ppb_build.sh, bench/tune_ppb.sh): compile with
// -DVPATCH_PPB_3D_K3=P / -DVPATCH_PPB_3D_K4=P to override the 3D k = 3 / k = 4 entry for
// both precisions (k = 3 with 25 threads per patch: 1..8; k = 4: 1, 2, 4 fit the shared
// memory and the 1024-thread limit), and with -DVPATCH_PATCH_MIN_BLOCKS=B to give every smoother kernel the
// min-blocks hint B.
constexpr int patches_per_block(int dim, int degree, bool is_double)
{
  if (dim == 3 && degree == 3) return tuned(VPATCH_PPB_3D_K3, 5);
  if (dim == 3 && degree == 4) return tuned(VPATCH_PPB_3D_K4, is_double ? 1 : 2);
  return degree == 1 ? 16
       : degree == 2 ? 8
       : degree == 3 ? 4
       : degree == 4 ? 2
       : 1;
}

// Patches per thread of the float Fused, Boundary and Global kernels (k >= 2): 2 = patch
// pairs (lanes.cuh: each shared-memory element holds the same point of two patches, 8
// bytes, and the kernel takes the double kernel's launch shape, layouts and shared-memory
// access pattern), 1 = one patch per thread. Float smoothing step, GDoF/s, one patch ->
// pairs (bench/NOTES.md, "Patch pairs"): H200, 3D at 50M DoF, Fused k = 2 20.9 -> 21.2,
// k = 3 20.1 -> 21.5, k = 4 16.9 -> 18.4, k = 5 7.7 -> 8.9, k = 6 7.5 -> 6.6, k = 7 6.1 ->
// 5.5, k = 8 5.7 -> 4.7 (twice the shared memory per block of one patch: fewer blocks
// from k = 6 on), Boundary k = 3 11.9 -> 15.4, k = 4 11.2 -> 14.6; H100, 2D at 64M DoF,
// Fused k = 2 19.2 -> 23.2, k = 3 14.7 -> 19.6, Boundary k = 4 12.3 -> 17.9, k = 6 10.5 ->
// 14.8, k = 8 8.4 -> 11.7. Since the 3D kernels for k = 5..8 run by lines with compiled-in
// matrices (thirty-third session), pairs win there too (H100, same call, bench/NOTES.md,
// "Launch shapes of the apply form; the smoother by lines with float pairs"): Fused k = 6
// 11.52 -> 14.41, k = 7 11.95 -> 12.99, k = 8 9.39 -> 10.50 (Boundary 9.54 -> 9.18).
// -DVPATCH_PATCH_PAIRS=0/1 overrides (1: every float k >= 2).
constexpr int patch_lanes(int dim, int degree, bool is_double)
{
  return !is_double && degree >= 2 && tuned(VPATCH_PATCH_PAIRS, dim == 2 || degree <= 8) ? 2 : 1;
}

// Whether the smoother's closure gather takes a copy loop without per-point boundary tests
// (and without zero-fill predicates) for the patches whose closure does not reach the
// domain boundary: 3 instructions per copy instead of 8 (ncu: the gather, before the first
// barrier, held 35% of the 3D float k = 3 Fused kernel's executed instructions and 49% of
// its stall samples). H100, same call, smoothing step GDoF/s without -> with (bench/NOTES.md,
// "Interior closure gathers"): 3D float Fused k = 2 21.2 -> 24.5 (+15%), k = 3 23.6 ->
// 22.4 (-5%), k = 4 17.5 -> 17.1; double k = 2 -2%, k = 3, 4 within 2%; 2D and 3D k >= 6
// within 2% for the best variants (2D double k = 2 Fused -3.8%, 3D double k = 8 Fused
// -8.4%), hence 3D float k = 2 only. -DVPATCH_INTERIOR_GATHER=0/1 overrides.
constexpr bool interior_gather(int dim, int degree, bool is_double)
{
  return tuned(VPATCH_INTERIOR_GATHER, dim == 3 && degree == 2 && !is_double);
}

// Threads per patch of the Fused, Boundary and Global kernels, as the plane they cover:
// 0 = (2k+1)^2 (a closure plane), 1 = (2k-1)(2k+1) (the largest plane a contraction
// writes), 2 = (2k-1)^2 (the planes of the local solve; the (2k-1)(2k+1) residual planes
// then take two rounds). The Basic kernel keeps (2k+1)^2 (its padded frame).
// -DVPATCH_COMPACT_THREADS=0/1/2 overrides. H200 (bench/NOTES.md, "Compact threads per
// patch"): 1 against 0: Fused +29-40% at 2D k = 2, +12% at 2D k = 3, +11% at 2D k = 4
// float, +30-37% at 3D k = 2, +13% at 3D k = 3 double, +8% at 3D k = 4 double; within +-5%
// (noise) from k = 5 on, where the m x m stages leave few threads idle anyway. 2 against 1
// ("Interior-plane threads and bank-aligned strides", 5 patches per block, padded patch
// stride): 3D k = 3 Fused double 5.23 -> 6.34, float 8.49 -> 10.74 GDoF/s; 3D k = 4 (49
// threads, 2 or 3 patches) 6-28% slower, so 1 stays there.
enum PatchThreadPlane : int { ClosurePlane = 0, ResidualPlane = 1, InteriorPlane = 2 };
constexpr int patch_thread_plane(int dim, int degree, bool is_double)
{
  return tuned(VPATCH_COMPACT_THREADS, dim == 3 && degree == 3 ? InteriorPlane : degree <= 4 ? ResidualPlane : ClosurePlane);
}

// Whether a patch's buffers lie a stride apart that is congruent to the threads per patch
// modulo 32 banks, so the warps that span two patches address distinct banks (bank =
// lane + constant for every plane-contiguous access). -DVPATCH_PATCH_PAD=0/1 overrides.
// H200: 3D k = 3 (5 patches of 25 threads) Fused 5.53 -> 6.13 double, 9.08 -> 9.98 float;
// 3D k = 3, 4 with the previous shapes: within 1%.
constexpr bool pad_patch_stride(int dim, int degree, bool is_double)
{
  return tuned(VPATCH_PATCH_PAD, dim == 3 && degree == 3);
}

// Second argument of the smoother kernels' __launch_bounds__ (minimum resident blocks per
// SM). 0 = no hint: ptxas -v gives the same code as the one-argument form (1 would not: it
// lets ptxas use up to 65536 / threads registers, e.g. 3D k = 3 double 60 -> 124). 3D float
// k = 4: 12 blocks of 126 threads, which cap the registers and raise occupancy (H200, Fused
// 6.22 -> 7.54 GDoF/s for 10 against a 6-block hint; with the z matrices as launch
// constants 10: 8.33, 12: 8.82, 14: 8.69). 3D k = 3 (125-thread blocks): float 12 (40
// registers; none: 9.22, 6: 8.42, 8: 9.98, 10: 10.74 GDoF/s; with the z matrices as launch
// constants 8: 10.15, 10: 11.34, 12: 12.16, 14: 11.41), double 6 (80 registers; none: 6.13, 10: 5.39, 6: 6.34).
// 3D double k = 4 (63 threads, contractions by lines): 10 (Fused 6.95 -> 7.38, Boundary
// 6.66 -> 7.21 GDoF/s against no hint; float k = 4 with 10 instead of 12: 11.28 vs 11.36).
// is_double: 8-byte elements, i.e. double or float patch pairs (patch_lanes); scalar_double:
// the scalar type. 3D k = 3 with the nineteenth session's kernels (H200, same call, Fused
// GDoF/s, hint 6 / 5 / 4 / 3 / none): double 13.06 / 14.33 / 13.93 / 13.94 / -, float
// pairs 21.45 / 24.09 / 22.82 / 22.77 / 21.12 (80 / 96 / 112 / 112 / 56 registers; shared
// memory holds at most 6 blocks).
// 3D k = 4..8 in the plane form (nineteenth session), hints 2, 3, 4, 6, 8 against the
// table's (same call, bench/NOTES.md, "Patch pairs"): only double k = 6 gained, Fused 3.96 ->
// 4.12 GDoF/s with 3 (96 registers); the others lost 0-80% or stayed within 1%. By lines
// (thirty-fourth session, "Launch shapes of the apply form; the smoother by lines with float
// pairs"), with the float pairs taking these 8-byte hints: double k = 6 6.89 -> 7.36 with 3,
// k = 7 5.96 -> 6.18 with 2 (H200), float pairs k = 6 +4..+10% with 3, k = 7 within 0.3%.
// k = 5 by lines (8-byte elements, where the scalar type picks the hint; H100, same call,
// Fused GDoF/s, no hint / 4 / 6 / 8): double 6.82 / 7.98 / 7.04 / 6.61 (70 -> 104 registers
// with 4), float pairs 13.58 / 15.24 / 16.51 / 12.58 (72 -> 80 with 6); Boundary double 6.31 /
// 6.16 / 6.41, float 12.07 / 12.65 / 12.80.
constexpr int patch_min_blocks_per_sm(int dim, int degree, bool is_double, bool scalar_double)
{
  if (dim == 3 && degree == 5 && is_double) return tuned(VPATCH_PATCH_MIN_BLOCKS, scalar_double ? 4 : 6);
  if (dim == 3 && degree == 3) return tuned(VPATCH_PATCH_MIN_BLOCKS, is_double ? 5 : 12);
  if (dim == 3 && degree == 4) return tuned(VPATCH_PATCH_MIN_BLOCKS, is_double ? 10 : 12);
  if (dim == 3 && degree == 6 && is_double) return tuned(VPATCH_PATCH_MIN_BLOCKS, 3);
  // k = 7 by lines, 8-byte elements (double: 114 -> 128 registers, 12 B spilled; H100, same call:
  // Fused 5.97 -> 6.15 GDoF/s; float pairs: within 0.3% of no hint, H200)
  if (dim == 3 && degree == 7 && is_double) return tuned(VPATCH_PATCH_MIN_BLOCKS, 2);
  return tuned(VPATCH_PATCH_MIN_BLOCKS, 0);
}

// Whether the local solve's contractions with the eigenvectors (where they take launch
// constants, line_contractions) run in even-odd form (common.cuh, contract_evenodd: each
// eigenvector is even or odd under the patch's reflection, so half the multiplies and half
// the matrix entries). H200, same call, smoothing step GDoF/s (bench/NOTES.md, "Even-odd
// local solves"): 3D float Fused k = 3 24.46 -> 24.82, k = 4 18.90 -> 20.42 (+8.1%),
// Boundary k = 4 +2.2%; double Fused k = 4 11.16 -> 11.68 (+4.6%), k = 2, 3 within 0.3%;
// Global float k = 4 -2.0%. -DVPATCH_EVENODD=0/1 overrides.
constexpr bool evenodd_solve(int dim, int degree, bool is_double)
{
  return tuned(VPATCH_EVENODD, 1);
}

// Whether the 3D local solve (with its contractions by lines, line_contractions) takes two of
// its six 1D contractions through registers instead of shared memory: S^T along z on the
// residual's z column as the residual stage forms it (or on the given residual's column), and
// S^T along y, the division by the eigenvalues and S along y on one y line. The directions
// commute, so (S S S) Lambda^{-1} (S^T S^T S^T) is applied as z^T, x^T, (y^T, Lambda^{-1}, y),
// x, z: four stages through shared memory instead of six, two barriers fewer per patch
// (the searched layouts of patch_layout.hpp have entries for either form). H200, same call,
// smoothing step GDoF/s, six stages -> registers (docs/results/calls_s56_h200.txt, call A):
// Fused double k = 3 14.49 -> 15.30 (+5.6%), float k = 3 +2.8%, k = 2, 5, 6, 8 +2.8..+5.3%,
// k = 4 +0.1 / +1.1%, k = 7 +0.8 / +1.4%; Boundary +2.8..+11.6%; with the given residual's
// column loaded through registers (call C) Global -3.5..+5.3% (k = 4 -3.5 / -3.0%, the rest
// -1.0..+5.3%) and Fused from zero +0.3..+7.9%. -DVPATCH_FUSED_SOLVE=0/1 overrides.
constexpr bool fused_solve(int dim, int degree, bool is_double)
{
  return dim == 3 && tuned(VPATCH_FUSED_SOLVE, 1);
}

// Whether the smoother's z-direction contractions (whose matrix entries are the same for
// every thread: z and the contraction index are unrolled) read the patch matrices from
// the kernel's launch parameters, i.e. from the constant bank as operands of the
// multiply-adds, instead of from shared memory (one load instruction each). The host
// copies must be attached to the PatchView (LevelTables::device_patch_view); otherwise
// shared memory as before. 3D only (2D has no z contraction), k <= 8 (the reference patch
// tables, reference_tables.hpp, whose parities the even-odd solves take); with them the x
// and y contractions run by lines (line_contractions). k = 5..8 since the thirty-third
// session, with the matrices compiled in (reference_matrices) and even-odd local solves:
// H200, same call, smoothing step GDoF/s, shared-memory plane form -> by lines (bench/NOTES.md,
// "The smoother by lines for k = 5..8"): Fused float k = 5..8 9.08 / 7.54 / 6.14 / 5.70 ->
// 13.99 / 11.84 / 11.99 / 9.54, double 4.66 / 4.12 / 3.37 / 2.82 -> 7.03 / 7.40 / 5.98 / 4.75
// (with launch-constant double matrices 5.88 / 5.37 / 4.74 / 3.18); the eighth session had
// found lines with launch constants at k >= 5 18-79% slower, before the even-odd solves,
// the searched layouts and the column writes. -DVPATCH_LAUNCH_MATRICES=0 turns them off
// (the reference tables bound them to k <= 8 either way).
constexpr bool launch_matrices(int dim, int degree, bool is_double)
{
  return dim == 3 && degree <= 8 && tuned(VPATCH_LAUNCH_MATRICES, 1);
}

// Whether the smoother's x and y contractions, like its z contractions, give each thread
// a whole line along the contracted direction (common.cuh, contract_lines) with the
// matrices as launch constants (so only where launch_matrices): an input is loaded once
// per line instead of once per output row. -DVPATCH_LINES=0/1 overrides. H200 (bench/NOTES.md,
// "Contractions by lines"): Fused 3D k = 3 float 12.15 -> 13.92, double 7.35 -> 9.26
// GDoF/s, k = 4 +15% / +29%; k = 5..8 since the thirty-third session (launch_matrices).
constexpr bool line_contractions(int dim, int degree, bool is_double) { return launch_matrices(dim, degree, is_double) && tuned(VPATCH_LINES, 1); }

// Whether the launch-constant matrices are the h = 1 reference tables compiled into the
// kernel (reference_tables.hpp) instead of the level's: a level of cell size h
// differs only by scalars (patch operator h^(d-2) A^, its inverse h^(2-d) A^-1), which the
// kernel applies to the residual and the correction. Compile-time float matrices become
// immediate operands of the FFMAs; launch parameters are first copied to uniform registers
// (ULDC: 9% of the 3D float k = 3 kernel's executed instructions, 17% at k = 4). A double
// immediate does not fit an instruction (ptxas builds each from two UMOVs), yet from k = 4
// on the compiled-in double tables are faster too (same call as above, Fused: k = 4 11.35
// -> 11.54, k = 5..8 +20..49% against launch constants); double k = 2, 3 keep the launch
// constants. -DVPATCH_REFERENCE_MATRICES=0/1 overrides.
constexpr bool reference_matrices(int dim, int degree, bool is_double)
{
  return launch_matrices(dim, degree, is_double) && tuned(VPATCH_REFERENCE_MATRICES, !is_double || degree >= 4);
}

// Whether the 3D cell operator kernel (laplace_kernel, k >= 4) takes the h = 1 cell
// matrices compiled in (reference_tables.hpp; the level's operator is h times the
// reference one in 3D, applied to each cell's result) with its x and y contractions by
// lines (common.cuh, contract_lines), instead of the level's matrices from shared memory in
// the plane form. H200, MatMult 3D float GDoF/s (bench/NOTES.md, "Operator by lines"): k = 4
// 82.4 -> 100.7, k = 5 87.8 -> 111.9, k = 6 92.1 -> 122.3, k = 7 102.0 -> 105.5, k = 8 69.2 ->
// 99.8; k = 3 81.3 -> 73.6 (hence k >= 4). Double since the thirty-third session, with the
// even-odd lines (evenodd_operator; before them the compiled-in double entries, two UMOVs
// each, cost 3D k = 7 345 of 1616 instructions and 128 registers, and k = 9, 10 spilled):
// H200, same call, MatMult double k = 4..10 45.3 / 51.2 / 46.3 / 56.6 / 44.4 / 45.7 / 43.3 ->
// 64.0 / 75.1 / 75.9 / 85.1 / 85.4 / 84.5 / 84.8 GDoF/s (bench/NOTES.md, "The cell operator
// in even-odd form"). -DVPATCH_REFERENCE_OPERATOR=0/1 overrides.
constexpr bool reference_operator(int dim, int degree, bool is_double)
{
  return dim == 3 && degree >= 4 && tuned(VPATCH_REFERENCE_OPERATOR, 1);
}

// Whether the cell operator with compiled-in matrices (reference_operator) contracts its
// lines in even-odd form (laplace.cu, EvenOddCell: the cell matrices are centro-symmetric,
// so about half the multiply-adds, and every line a whole unrolled loop). H200, same call,
// MatMult GDoF/s plain -> even-odd: float k = 4..7 within 1.1%, k = 8 101.9 -> 143.2, k = 9
// 95.8 -> 142.4, k = 10 100.1 -> 153.6; double k = 4, 5 within 2.3%, k = 6 79.6 -> 75.9, k = 7
// 86.9 -> 85.1, k = 8 60.5 -> 85.4, k = 9 58.5 -> 84.5, k = 10 52.1 -> 84.8 (the plain z walk
// unrolls its loop by 2 from k = 8 on). -DVPATCH_EVENODD_OPERATOR=0/1 overrides.
constexpr bool evenodd_operator(int dim, int degree, bool is_double)
{
  return reference_operator(dim, degree, is_double) && tuned(VPATCH_EVENODD_OPERATOR, 1);
}

// Whether the 3D cell transfer kernels (k >= 2) take the matrix of their z contraction
// (the same entry in every thread) compiled in (reference_tables.hpp; the 1D
// prolongation does not depend on the level) instead of from shared memory. Not for
// double k >= 5: with it and transfer_lines, H200 prolongation + restriction (bench_kernels)
// k = 5 51.2 -> 47.1, k = 7 47.5 -> 42.3 GDoF/s, k = 6, 8 within 3% (bench/NOTES.md,
// "Transfers by lines"); float k = 2..8 and double k = 2..4 gained 1-35%.
// -DVPATCH_REFERENCE_TRANSFERS=0/1 overrides.
constexpr bool reference_transfers(int dim, int degree, bool is_double)
{
  return dim == 3 && degree >= 2 && tuned(VPATCH_REFERENCE_TRANSFERS, !(is_double && degree >= 5));
}
// Whether those kernels' x and y contractions, too, give a thread a whole line with the
// compiled-in matrix (common.cuh, contract_lines) instead of one output row of the plane
// with the matrix in shared memory. -DVPATCH_TRANSFER_LINES=0/1 overrides.
constexpr bool transfer_lines(int dim, int degree, bool is_double) { return reference_transfers(dim, degree, is_double) && tuned(VPATCH_TRANSFER_LINES, 1); }

// Whether the 3D prolongation kernel (k >= 2) updates xf += P xc by whole z columns (common.cuh,
// ColumnStore: every load of a thread's column before its first store) instead of point by
// point (each load then waits for the previous store: the compiler cannot tell that they do
// not alias). More registers held (3D k = 7 float 40 -> 71, double 60 -> 94). H200,
// prolongation + restriction (bench/NOTES.md, "Prolongation by z columns"): float k = 2..8
// +12..44%, double k = 2..7 +10..25%, double k = 8 -9% (108 registers): not for double k >= 8.
// -DVPATCH_TRANSFER_COLUMN=0/1 overrides. (Since the forty-third session the 3D prolongation
// runs by tiles at every degree, tiled_transfers below: this applies where
// -DVPATCH_TRANSFER_TILES=0 brings the cell kernel back.)
constexpr bool transfer_column_store(int dim, int degree, bool is_double)
{
  return dim == 3 && tuned(VPATCH_TRANSFER_COLUMN, !(is_double && degree >= 8));
}

// Whether the cell and patch kernels (smoother, operator k >= 3, transfers) gather their
// shared-memory inputs with cp.async (common.cuh, copy_or_zero) instead of load-then-store
// loops; -DVPATCH_ASYNC_GATHERS=0/1 overrides. H200 (bench/NOTES.md, "Asynchronous input
// gathers"): 3D double smoother k = 3 +12%, k = 8 +17%, 3D transfers +6..19%, MatMult 3D
// k = 7 +11%; 2D k >= 3 1-5% slower, hence 3D only.
constexpr bool async_gathers(int dim, int degree) { return tuned(VPATCH_ASYNC_GATHERS, dim == 3); }

// Whether the smoother's closure gather goes through registers (common.cuh, RegisterGather:
// every load of a thread issued first, then one store per point of its W patches) instead
// of gather_box (2D: a load and a store per point and lane, the loads waiting on the stores
// before them; 3D: cp.async), and so does the Global variant's copy of its residual. H100,
// same call, Fused / Boundary GDoF/s (bench/NOTES.md, "The smoother's closure through
// registers"): 2D float k = 2 23.2 -> 26.1 / 22.2 -> 25.6, k = 3 19.6 -> 21.3 / 17.9 -> 20.8,
// k = 4..10 +1..+4%, double +0..+1.4%, Global within 0.5%; 3D against cp.async: float k = 2
// even, k = 4, 5 and 8 -5..-12%, double k = 3, 4 -2..-4%. Hence 2D.
// -DVPATCH_REGISTER_GATHER=0/1 overrides.
constexpr bool register_gathers(int dim, int degree)
{
  return tuned(VPATCH_REGISTER_GATHER, dim == 2);
}

// Whether the smoother kernels of compact layouts (not Basic) run the local solve with two
// contractions in registers (fused_solve): where their contractions run by lines, and not with
// register_gathers, whose given residual (2D) takes no S^T_z. (`wide`: the element size, as for
// line_contractions.)
constexpr bool solve_in_registers(int dim, int degree, bool wide)
{
  return line_contractions(dim, degree, wide) && !register_gathers(dim, degree) && fused_solve(dim, degree, wide);
}

// Whether the smoother kernel (compact layouts) loads each thread's column of the right-hand
// side while the closure's copies are in flight (rhs) and its column of the output during
// the local solve (out), instead of where the residual and the final write use them: the
// latency leaves the critical path, the address arithmetic and the registers held across the
// stages in between are the price. -DVPATCH_PREFETCH_RHS=0/1, -DVPATCH_PREFETCH_OUT=0/1
// override. H200, Fused 3D, GDoF/s against neither (best of 3 x 3 groups of 5; bench/NOTES.md,
// "Early loads of b and out"): rhs / out / both: float k = 2 +1.3 / -5.4 / -5.2%, k = 3 -4.1 /
// +4.9 / -1.0%, k = 4 +1.0 / +11.0 / +15.9%, k = 5..8 -11..0%; double k = 2 +2.3 / -1.1 /
// +2.1%, k = 3 +2.9 / +1.4 / +5.6%, k = 4 +1.4 / +1.2 / +1.0%, k = 5 +2.9 / +2.8 / +2.3%,
// k = 6 -4.7 / -1.1 / -5.6%, k = 7 +3.5 / +0.3 / +4.5%, k = 8 +1.2 / -0.4 / -2.3% (Boundary,
// rhs only: double k = 8 +5.1%, k = 6 -9.2%, float k = 8 -7.9%); 2D within -5..+1%: off.
// is_double: 8-byte elements (double, float patch pairs). With the pairs, out at 3D k = 4
// (H100, same call, Fused GDoF/s; bench/NOTES.md, "Chained DFMAs and early out at k = 4"):
// float pairs 17.65 -> 18.81 (+6.6%), double 10.28 -> 10.48 (+1.9%).
constexpr bool prefetch_rhs(int dim, int degree, bool is_double)
{
  return tuned(VPATCH_PREFETCH_RHS, dim == 3 && (degree == 2 || degree == 4 || (is_double && degree != 6)));
}
constexpr bool prefetch_out(int dim, int degree, bool is_double)
{
  return tuned(VPATCH_PREFETCH_OUT, dim == 3 && (degree == 3 || degree == 4 || (degree == 7 && is_double)));
}

// Whether the contractions of the several patches of a block use packed thread numbering
// (detail::contract, Packed: the patches' output planes one after the other, so idle
// threads form whole warps) instead of each patch's own threads. Override for experiments
// with -DVPATCH_PACK=0/1. H200 (bench/NOTES.md): packed is 8-25% faster for 2D k = 2..4,
// 3D k = 2 and 3D float k = 4, 2-9% slower for 3D k = 3.
constexpr bool pack_patches(int dim, int degree, bool is_double)
{
  return patches_per_block(dim, degree, is_double) > 1 && tuned(VPATCH_PACK, !(dim == 3 && degree == 3));
}

// Contraction bodies of the operator (laplace_kernel) and the smoother (patch_kernel): one
// FMA per product (true) or the products' sum first (common.cuh, SumOfTwo). H200
// (bench/NOTES.md, "One FMA per product"): the operator gains everywhere (3D float k = 4 +15%,
// double k = 6 +15%), the float smoother +2..+5%, the double smoother loses from k = 6
// (3D k = 7 -12%: fewer registers, more blocks, a longer chain of dependent DFMAs). With the
// kernels of the twentieth session the chained form gains in the 3D double smoother up to
// k = 5 (H100, same call, GDoF/s; bench/NOTES.md, "Chained DFMAs and early out at k = 4"):
// Fused k = 2 +1.0%, k = 3 +0.8%, k = 4 +1.5%, k = 5 +0.6%, Boundary +0.1..+1.3% (the
// mul, fma, add of a product pair become two FMAs). -DVPATCH_CHAINED_SMOOTHER=0/1 overrides
// the smoother's rule.
constexpr bool chained_fma(bool smoother, int dim, int degree, bool is_double)
{
  return smoother ? tuned(VPATCH_CHAINED_SMOOTHER, !is_double || (dim == 3 && degree <= 5)) : true;
}

// The operator's kernel: laplace_gather_kernel (a thread per point gathering its row, no
// atomics) up to a degree, laplace_kernel (cells, atomics) above it.
// -DVPATCH_GATHER_KMAX_2D=K and -DVPATCH_GATHER_KMAX_3D=K override (K = 2: the cell kernel
// for 2D k >= 3 as before the sixteenth session). H200, MatMult GDoF/s,
// cell kernel -> gather (bench/NOTES.md, "The gather operator for k >= 3"): 2D float k = 3
// 80.3 -> 253.3, k = 7 81.9 -> 120.0, k = 10 62.6 -> 73.2; 2D double k = 3 55.7 -> 173.4,
// k = 10 33.9 -> 37.5; 3D k = 3 float 80.9 -> 130.4, double 46.2 -> 59.0; 3D k = 4 float
// 99.6 -> 94.6, double 45.3 -> 38.1 (the halo rows' x sums grow with k).
constexpr bool gather_operator(int dim, int degree, bool is_double)
{
  return degree <= (dim == 3 ? tuned(VPATCH_GATHER_KMAX_3D, 3) : tuned(VPATCH_GATHER_KMAX_2D, 10));
}

// The 2D operator by cell columns (laplace_cell_columns.cuh) instead of the gather: a thread
// per cell column, the k points of a cell along x, marching along y cell by cell with the
// compiled-in h = 1 cell matrices (k = 4..10, reference_tables.hpp OperatorTables), so the
// multiply-adds skip the zeros of the rows of points inside a cell: 4 (k + 1)^2 / k per point
// against the gather's 4 (2k + 1), and no coefficient registers or loads. H100, same call,
// GDoF/s gather -> cell columns (bench/NOTES.md, "The 2D operator by cell columns"): float
// MatMult k = 4..10 261 / 261 / 236 / 208 / 184 / 156 / 143 -> 306 / 298 / 294 / 271 / 240 / 223 /
// 195, float residual k = 4..10 181 / 167 / 153 / 141 / 129 / 118 / 103 -> 189 / 184 / 191 / 180 /
// 159 / 159 / 123; double residual k = 4..9 95 / 80 / 79 / 76 / 74 / 52 -> 111 / 114 / 99 / 96 /
// 81 / 60 (k = 10 52 -> 25; k = 9 52 -> 44 in a second call), double MatMult k = 5, 6 140 / 121
// -> 160 / 160 (k = 4 -4%, k = 7..10 -26..-56%: 200-255 registers, spills from k = 9).
// -DVPATCH_CELL_COLUMNS=0/1 overrides.
// 3D (laplace_cell_columns_3d.cuh): a thread per cell column along z, the k x k points of a
// cell in x, y, where an H100 measured it faster. Thirty-eighth session (bench/NOTES.md "The 3D
// operator by cell columns"): float k = 4 MatMult 85.8 -> 121.4 (the cell kernel with atomics
// before), double k = 3 MatMult 84.2 -> 97.6 (the gather before). Thirty-ninth session, with the
// copies' and stores' offsets in 32 bits, computed once per thread, and the residual's b loaded
// before the outputs are staged (bench/NOTES.md "Address arithmetic of the 3D cell columns"),
// same call, GDoF/s before -> now: double k = 2 MatMult 125.0 -> 130.7 (the gather before), k = 3
// MatMult 97.7 -> 127.4, residual 73.1 -> 89.4 (the gather before), k = 4 MatMult 54.9 -> 71.0,
// residual 47.5 -> 50.1 (the cell kernel before; 255 registers, 0.9 KB of spills); float k = 3
// MatMult 160.4 -> 180.9, residual 137.6 -> 156.4 (the gather before), k = 4 MatMult 121.6 ->
// 167.4, residual 100.3 -> 130.0. Not at k = 2 in float (MatMult 232.9 against 184.7) nor the
// double k = 2 residual (96.4 against 94.0), where the gather keeps its rate with fewer registers,
// nor k = 5 (8-10 KB of spills in double: MatMult 61.5 -> 15.3, float 98.9 -> 57.5).
// -DVPATCH_CELL_COLUMNS_3D=0/1 overrides (1: k = 2..VPATCH_CELL_COLUMNS_3D_KMAX, default 4).
constexpr bool cell_columns_operator(int dim, int degree, bool is_double, bool residual)
{
  if (dim == 3) {
    const bool faster = degree >= 3 || (is_double && !residual);
    return degree >= 2 && degree <= tuned(VPATCH_CELL_COLUMNS_3D_KMAX, 4) && tuned(VPATCH_CELL_COLUMNS_3D, faster) != 0;
  }
  const bool faster = !is_double || (residual ? degree <= 8 : degree == 5 || degree == 6);
  return dim == 2 && degree >= 4 && degree <= 10 && tuned(VPATCH_CELL_COLUMNS, faster) != 0;
}
// The Richardson tests' norm (the mixed column's of its float residual; the double one's of its
// double residual since the fifty-first session, by the same choice, measured for the float
// residual only) summed by the residual kernel itself
// (laplace_residual_sum_squares; SquaresPart, common.cuh) or by a pass over the residual
// after it: in the kernel for the gather (2D, 3D) and the 3D cell columns, after it for the 2D
// cell columns, whose instantiation with the sums ran slower than the separate pass. H100, same
// call, mixed Richardson steps after full multigrid, s43 library -> the sums in the kernel
// (bench/NOTES.md, "The float residual's norm in the residual's pass"): 2D Q5 (cell columns),
// 104.9M DoF, 22.35 -> 22.88 ms per step; 2D Q2 (gather), 67.1M DoF, 10.99 -> 10.91 ms; Table 7
// (3D) mixed k = 1 0.0644 -> 0.0633 s, k = 3 0.1481 -> 0.1476 s.
constexpr bool residual_squares_in_kernel(int dim, int degree) { return !(dim == 2 && cell_columns_operator(2, degree, true, true)); }
// The mixed Richardson step's correction x += c in the next residual's pass
// (laplace_gather_kernel<..., corrected>): the kernel exists where the gather forms the float
// residual with its squares (3D k = 1, 2, 2D k = 1..3, 9, 10; kernel tests), and is used where
// it measured faster than the two passes: 3D k = 1 (H200, 135M DoF, Nsight Compute: 1380 us
// against 886 + 667; Table 7 k = 1 mixed Richardson 0.0507 -> 0.0496 s; bench/NOTES.md, "The
// mixed Richardson step's correction in the residual's pass"). Elsewhere unmeasured: at 3D k = 2
// and 2D k = 9 its ring holds 3 stages where the residual's has 4, at 2D k = 10 it takes 230
// registers against 166. -DVPATCH_CORRECTED_RESIDUAL=0/1 overrides (1: wherever it exists).
constexpr bool gather_corrects(int dim, int degree)
{
  return !cell_columns_operator(dim, degree, true, true) && gather_operator(dim, degree, true) && residual_squares_in_kernel(dim, degree);
}
constexpr bool corrected_residual(int dim, int degree)
{
  return gather_corrects(dim, degree) && tuned(VPATCH_CORRECTED_RESIDUAL, dim == 3 && degree == 1) != 0;
}
// Cell columns per block of the 3D cell-column operator along x and y (a warp: two rows of 16).
constexpr int cell_columns_tile_x_3d = 16, cell_columns_tile_y_3d = 8;
// Cells along z per block of the 3D cell-column operator (each block also walks the cell
// below its chunk for the carry into its first plane). -DVPATCH_CELL_COLUMNS_CHUNK_3D=C overrides.
constexpr int cell_columns_chunk_3d(int degree, bool is_double) { return tuned(VPATCH_CELL_COLUMNS_CHUNK_3D, 16); }
// The second argument of the 3D cell-column kernel's __launch_bounds__ (0: none): 4 for float
// k = 3 (158 -> 128 registers, no spills, 3 -> 4 blocks of 128 threads per SM), 3 for the double
// k = 2 MatMult (96 -> 116 registers, 4 blocks either way). H100, same call, GDoF/s none / 3 / 4
// (bench/NOTES.md, "Address arithmetic of the 3D cell columns"): float k = 3 MatMult 183.2 /
// 185.0 / 208.9, residual 156.8 / 133.3 / 161.8; double k = 2 MatMult 130.9 / 140.1 / 139.5;
// slower elsewhere (spills: double k = 3 MatMult 128.4 / 126.1 / 58.3, float k = 4 169.1 / 132.7 /
// 88.4). -DVPATCH_CELL_COLUMNS_MIN_BLOCKS_3D=B overrides.
constexpr int cell_columns_min_blocks_3d(int degree, bool is_double, bool residual)
{
  return tuned(VPATCH_CELL_COLUMNS_MIN_BLOCKS_3D, !is_double && degree == 3 ? 4 : is_double && degree == 2 && !residual ? 3 : 0);
}
// Its cells not owned read their sums' inputs from a window of zeros in shared memory instead
// of setting their 2 (k + 1)^2 sums to zero at every plane (the zeroing ran in every thread,
// 5% of the double k = 3 MatMult's instructions). H100, same call, GDoF/s set -> window
// (bench/NOTES.md, "Address arithmetic of the 3D cell columns"): double k = 3 MatMult 126.9 ->
// 133.2, residual 89.2 -> 92.2, k = 4 70.9 -> 73.1 / 50.0 -> 50.4; float k = 3 MatMult 206.5 ->
// 209.7, k = 4 167.4 -> 173.2 / 129.7 -> 132.1; not the float k = 3 residual (161.0 -> 152.4).
// -DVPATCH_CELL_COLUMNS_ZERO_WINDOW=0/1 overrides.
constexpr bool cell_columns_zero_window(int degree, bool is_double, bool residual)
{
  return tuned(VPATCH_CELL_COLUMNS_ZERO_WINDOW, !(degree == 3 && !is_double && residual)) != 0;
}
// Its ring of planes in flight (cp.async stages): 4 in float, 3 in double, whose tiles take
// twice the bytes (two blocks of 128 threads per SM at float k = 4 and double k = 3, as their
// registers allow). -DVPATCH_CELL_COLUMNS_STAGES_3D=D overrides.
constexpr int cell_columns_stages_3d(int degree, bool is_double) { return tuned(VPATCH_CELL_COLUMNS_STAGES_3D, is_double ? (degree >= 4 ? 2 : 3) : 4); }
// Cells along y per block of the cell-column operator (4 and 16: float MatMult k = 6 -5%, -24%),
// and threads (cell columns) per block (256: float MatMult k = 4 -3%, k = 6 -6%, k = 7..10 -25..-62%).
constexpr int cell_columns_chunk(int degree) { return tuned(VPATCH_CELL_COLUMNS_CHUNK, 8); }
constexpr int cell_columns_threads(int degree) { return tuned(VPATCH_CELL_COLUMNS_THREADS, 128); }
// The second argument of its __launch_bounds__ (0: none): 4 for the float residual at k = 4, 5
// (H100, same call, GDoF/s 189.0 -> 203.7, 184.4 -> 210.2) and, with the even-odd x sums (128
// registers, no spills), the float MatMult at k = 8 (246.2 -> 252.7); elsewhere within 1% or
// slower (float residual k = 8 -2.3%, spills from float k = 9 and double k = 6).
// -DVPATCH_CELL_COLUMNS_MIN_BLOCKS=B overrides.
constexpr int cell_columns_min_blocks(int degree, bool is_double, bool residual)
{
  return tuned(VPATCH_CELL_COLUMNS_MIN_BLOCKS, !is_double && (residual ? degree <= 5 : degree == 8) ? 4 : 0);
}
// Its output rows staged in shared memory and stored as 32 consecutive points per warp
// instruction, instead of from the registers with the lanes k points apart: float MatMult k =
// 4..10 +16 / +14 / +21 / +27 / +80 / +94 / +136%, residual k = 6..10 +22 / -1 / +6 / +3 / +9%,
// k = 4, 5 -7%, -7% (those unstaged); double within 1%. -DVPATCH_CELL_COLUMNS_STAGED=0/1 overrides.
constexpr bool cell_columns_staged_stores(int degree, bool is_double, bool residual)
{
  return tuned(VPATCH_CELL_COLUMNS_STAGED, !(residual && !is_double && degree <= 5)) != 0;
}

// Its x sums in even-odd form: a thread forms rows 0..k of its own cell from the cell's k + 1
// values (reference_cell.cuh, (h + n % 2)^2 + h^2 multiply-adds per matrix, n = k + 1, h = n / 2,
// against k (k + 1) + (k + 1) for rows 0..k-1 and the left cell's row k) and takes the
// vertex's left part, row k of the cell before, from the lane before (a shuffle; lane 0
// computes it itself). H100, same call, GDoF/s plain -> even-odd (bench/NOTES.md, "The 3D
// operator by cell columns"): float MatMult k = 8..10 239.0 / 224.2 / 193.4 -> 247.0 / 230.3 /
// 218.6, residual 159.4 / 158.7 / 123.8 -> 161.9 / 166.1 / 131.2, double residual k = 8 89.6 ->
// 92.2; k = 4..7 within -1..+1% in float, double residual k = 5, 6 -6%, -4%.
// -DVPATCH_CELL_COLUMNS_EVENODD=0/1 overrides.
constexpr bool cell_columns_evenodd(int degree, bool is_double, bool residual)
{
  return tuned(VPATCH_CELL_COLUMNS_EVENODD, degree >= 8) != 0;
}

// k = 1 smoothing sweeps: two consecutive colors that differ in the x parity in one launch
// (patch_row_pair_kernel: a warp per 64 x positions of a row, shuffles for the x
// neighbours, warps of a row exchanging edge values in shared memory) instead of two
// (patch_point_kernel), for rows of at most 2 color_pair_max_threads() positions. H200
// (bench/NOTES.md, "Row windows with shuffles"), k = 1 smoothing step, Fused GDoF/s: 3D
// 369 cells float 60.4 -> 110, double 45.8 -> 56; 2D 1000 cells float 62 -> 92, double
// 46.7 -> 67. The first pair kernel (a thread per vertex pair, each reading its own 3^d
// closure) gave double +23..30% and float nothing; 2D rows of 8000 vertices (a block
// looping along the row) were 17-30% slower and keep the per-color kernel; staging a
// row's closure lines in shared memory was slower in 3D. -DVPATCH_COLOR_PAIRS=0 turns it off.
constexpr int color_pair_max_threads() { return 512; }
// patch_row_pair_kernel: the edge lanes load the column beyond the warp with the window
// (early: one round trip, more registers) or in the phase that uses it. Float: early
// 110 vs late 98 GDoF/s (3D 369 cells); double: late 56 vs early 44 (same in 2D within 3%).
// -DVPATCH_PAIR_EARLY_EDGES=0|1.
constexpr bool pair_early_edges(bool is_double) { return tuned(VPATCH_PAIR_EARLY_EDGES, is_double ? 0 : 1) != 0; }
constexpr bool color_pairs(int row_vertices)
{
  return tuned(VPATCH_COLOR_PAIRS, 1) != 0 && (row_vertices + 1) / 2 <= color_pair_max_threads();
}

// laplace_gather_kernel: shared-memory stages of the cp.async ring (planes of x
// in flight per block: stages - 1; 3, 4, 6, 8 measured within 2% on the H200) and the
// second argument of its __launch_bounds__ (0 = no hint; forcing 6 blocks spills).
// -DVPATCH_GATHER_STAGES=S and -DVPATCH_GATHER_MIN_BLOCKS=B override them.
// With warp rings (gather_warp_rings) the 2D MatMult takes 6 at double k = 4 and float k = 5
// (H100, call D, same call, GDoF/s 4 -> 6 stages: 153.6 -> 162.5, 253.2 -> 259.8; bench/NOTES.md, "Warp rings").
// corrected: the mixed Richardson step's residual of x + c (laplace_residual_corrects), whose
// ring also holds c's planes: 3 stages at 3D k = 1 (H200, Nsight Compute time of the kernel in
// the Table 7 k = 1 solve, 135M DoF, stages 3 / 4 / 5 / 6 / 8: 1392 / 1482 / 1384 / 1375 / 1544
// us, 100 registers but at 4 and 8 (88); min-blocks hints of 5-7 made it 2-15% slower; the
// other gather forms gain nothing from 3 or 6; bench/NOTES.md, "The mixed Richardson step's
// correction in the residual's pass"). -DVPATCH_GATHER_STAGES_CORRECTED=S and
// -DVPATCH_GATHER_MIN_BLOCKS_CORRECTED=B override its stages and min-blocks hint alone.
constexpr int gather_stages(int dim, int degree, bool is_double, bool residual, bool corrected = false)
{
  const bool six = dim == 2 && !residual && (is_double ? degree == 4 : degree == 5);
  const int stages = tuned(VPATCH_GATHER_STAGES, six ? 6 : 4);
  return corrected ? tuned(VPATCH_GATHER_STAGES_CORRECTED, dim == 3 && degree == 1 ? 3 : stages) : stages;
}
// Points per thread and plane: 3D rows along y (they share the x sums of their halo
// rows), 2D points along x (adjacent or a block width apart, gather_adjacent; the
// measurements below are of points 256 apart); both share the coefficients of the marching
// direction. More rows, fewer instructions per point but more registers.
// -DVPATCH_GATHER_ROWS=R (3D) and -DVPATCH_GATHER_ROWS_2D=R override. H200, MatMult
// GDoF/s with R = 1 / 2 / 4 (bench/NOTES.md, "Scattered z sums"): 3D float k = 1 202 / 271
// / 338, k = 2 116 / 168 / 214; 3D double k = 1 159 / 192 / 184, k = 2 76 / 113 / 119 (224
// registers); 2D float k = 1 294 / 410 / 408, k = 2 253 / 339 / 319; 2D double k = 2 198 /
// 203 / 176. k >= 3 (R = 1 / 2 / 4): 2D float k = 3 188 / 252 / 262, k = 4 155 / 204 / 184,
// k = 6 105 / 129 / 137, k = 7 91 / 120 / 123, k = 8 78 / 106 / 109, k = 10 59 / 73 / -
// (spills); 2D double k = 3 149 / 173 / 139, k = 4 119 / 107 / 118, k = 8 44 / 61 / -, k =
// 10 38 / 30 (spills) / -; 3D k = 3 float 73 / 97 / 130, double 44 / 59 / -.
// With warp rings (gather_warp_rings, thirty-sixth session) 2 rows gained at 2D double k = 4
// (1 before) and the 2D float residual at k = 6, 7 (4 before): against warp rings with the old
// rows (H100, call C) MatMult +13.3%, residual +7.4% at double k = 4, residual +6.4%, +2.6% at
// float k = 6, 7.
constexpr int gather_rows_2d(int degree, bool is_double)
{
  if (is_double) return degree >= 10 ? 1 : 2;
  return degree == 3 || degree == 8 ? 4 : 2;
}
// The two forms of the kernel (residual: y = b - A x, the cycles' level residuals; apply: y =
// A x, MatMult) are separate instantiations and may take separate shapes. The float apply
// form takes 8 rows at 3D k = 1, 4 rows at 2D k = 5, 9, and 128-plane chunks in 2D for k >= 3
// (gather_chunk). H100, same call, float GDoF/s (bench/NOTES.md, "Launch shapes of the apply
// form"): 3D k = 1 apply 236.8 -> 267.3 with 8 rows, the residual unchanged (the twenty-fifth
// session had measured 8 rows for both forms: residual 209.6 -> 170.1); 2D apply with
// 128-plane chunks k = 3..10 +4..+16% (k = 6 164.7 -> 181.9, k = 8 136.4 -> 154.0; k = 1, 2
// -1..-6%), then 4 rows instead of 2 at k = 5 192.5 -> 201.4 and k = 9 109.6 -> 136.5 (k = 4
// -2%, k = 10 -46%; 2 rows instead of 4 at k = 3 -7%, k = 6..8 -10%; with warp rings, thirty-
// sixth session, k = 9 takes 2 rows again: +4.6% over 4); 3D k = 2, 3 slower with 8
// or 2 rows or other chunks. The 2D residual form keeps 64-plane chunks: 128 gave its rows
// +2..+11% in the twenty-fifth session but the 2D float solves -0.2..+2% (k = 3 slower).
// -DVPATCH_GATHER_ROWS=R / -DVPATCH_GATHER_ROWS_2D=R set both forms' rows; the float apply
// form's alone: -DVPATCH_GATHER_ROWS_APPLY_3D_FLOAT=R, -DVPATCH_GATHER_ROWS_APPLY_2D_FLOAT=R
// (chunks: gather_chunk).
constexpr int gather_rows(int dim, int degree, bool is_double, bool residual)
{
  const int rows = dim == 3 ? tuned(VPATCH_GATHER_ROWS, is_double ? 2 : 4) : tuned(VPATCH_GATHER_ROWS_2D, gather_rows_2d(degree, is_double));
  if (is_double || residual) return rows;
  const bool set = (dim == 3 ? VPATCH_GATHER_ROWS : VPATCH_GATHER_ROWS_2D) >= 0; // an override of both forms
  const int apply = set ? rows : dim == 3 ? (degree == 1 ? 8 : rows) : (degree >= 5 && degree <= 7 ? 4 : rows);
  return tuned(dim == 3 ? VPATCH_GATHER_ROWS_APPLY_3D_FLOAT : VPATCH_GATHER_ROWS_APPLY_2D_FLOAT, apply);
}
// The residual form of the gather kernel (y = b - A x, the cycles' and the full multigrid's
// residuals) loads b: 0 at each output plane's store (the store waits for the load), 1 at the
// start of the plane iteration that completes the output, D > 1 D - 1 iterations earlier (R
// more registers each). -DVPATCH_GATHER_EARLY_RHS=D overrides. H100, same call, residual GDoF/s 0 / 1 /
// 2 (bench/NOTES.md, "Early loads of b in the residual"; the apply runs at 77 / 144 for 3D k = 3
// double / float): 3D double k = 1 88 / 102 / 103, k = 2 77 / 97 / 96, k = 3 43 / 64 / 64;
// 3D float k = 1 165 / 211 / 197, k = 2 146 / 167 / 172, k = 3 82 / 111 / 112; 2D double k = 4
// 83 / 84 / 67 (R = 1: 78 -> 94 registers), k = 5 49 / 70 / 74; 2D float k = 6 68 / 131 / 134.
constexpr int gather_early_rhs(int dim, int degree, bool is_double)
{
  return tuned(VPATCH_GATHER_EARLY_RHS, (dim == 3 && degree == 1 && !is_double) || (dim == 2 && gather_rows(dim, degree, is_double, true) == 1) ? 1 : 2);
}
// 3D gather: the x sums of a plane's halo rows formed once per block in shared memory (one
// more barrier per plane) instead of by every thread whose rows need them ((R + 2k) / R
// times). -DVPATCH_GATHER_SHARED_X=0/1 overrides (not for double k >= 4: with the ring, 48 KB
// of static shared memory would not hold them). H200, MatMult GDoF/s, own sums -> shared:
// double k = 1 192.4 -> 168.7, k = 2 113.1 -> 118.8, k = 3 58.8 -> 69.7; float k = 1 334.0
// -> 296.0, k = 2 213.3 -> 202.9, k = 3 130.4 -> 119.1 (4 rows; 2 rows 123.9).
constexpr bool gather_shared_x_sums(int degree, bool is_double)
{
  return tuned(VPATCH_GATHER_SHARED_X, is_double && (degree == 2 || degree == 3)) && !(is_double && degree >= 4);
}
// Planes along the marching direction per block of the gather operator: a chunk reads 2k
// halo planes beyond its own, so longer chunks read less for k >= 2 (k = 1 prefers more
// blocks). H200, same-call A/B (bench/NOTES.md, "Gather chunks"), MatMult GDoF/s with 32 /
// 48 / 64 planes: 3D k = 1 float 335 / 326 / 321, double 192 / 194 / 190; k = 2 float
// 213 / 225 / 222, double 119 / 124 / 123; k = 3 float 130 / 138 / 145, double 70 / 77 /
// 77; 2D k = 2 float 336 / 344 / 345, double 203 / 205 / 207; k = 3 float 262 / 272 / 287,
// double 173 / 181 / 183; k = 4 float 204 / 216 / 221, double 119 / 127 / 132; k = 7 float
// 123 / 137 / 152, double 71 / 79 / 84; k = 10 float 73 / 84 / 90, double 37 / 44 / 47; 96
// planes exceed the 48 KB of static shared memory at 3D double k = 3, 2D double k = 10.
// -DVPATCH_GATHER_CHUNK=C overrides both forms (-DVPATCH_GATHER_CHUNK_3D_FLOAT_K3=C: 3D float k
// = 3 alone; -DVPATCH_GATHER_CHUNK_APPLY_FLOAT=C: the float apply form alone, gather_rows).
constexpr int gather_chunk_residual(int dim, int degree, bool is_double)
{
  if (degree == 1) return tuned(VPATCH_GATHER_CHUNK, 32);
  if (dim == 3 && degree == 3 && !is_double) return tuned(VPATCH_GATHER_CHUNK_3D_FLOAT_K3, tuned(VPATCH_GATHER_CHUNK, 64));
  if (dim == 3) return tuned(VPATCH_GATHER_CHUNK, 48);
  return tuned(VPATCH_GATHER_CHUNK, 64);
}
constexpr int gather_chunk(int dim, int degree, bool is_double, bool residual)
{
  const int chunk = gather_chunk_residual(dim, degree, is_double);
  if (is_double || residual) return chunk;
  const bool set = VPATCH_GATHER_CHUNK >= 0 || (dim == 3 && degree == 3 && VPATCH_GATHER_CHUNK_3D_FLOAT_K3 >= 0);
  return tuned(VPATCH_GATHER_CHUNK_APPLY_FLOAT, !set && dim == 2 && degree >= 3 ? 128 : chunk);
}
// 2D gather: a thread's R points adjacent along x (one window of W + R - 1 values of each
// plane, loaded as 8- or 16-byte vectors, serves all R x sums: (W + R - 1) / R values read per
// point instead of W) rather than a block width apart. H100, same call, MatMult GDoF/s, 256
// apart -> adjacent (bench/NOTES.md, "Adjacent points"): float k = 5 196 -> 233, k = 6 180 ->
// 210, k = 8 154 -> 182, k = 10 104 -> 121; double k = 5 98 -> 112, k = 8 75 -> 86, k = 9 66
// -> 80; k <= 4 +0..+8%; float k = 3 (4 rows) 293 -> 169, float k = 9 135 -> 110 (4 rows,
// spills; the packed coefficients below bring it to 147). -DVPATCH_GATHER_ADJACENT=0/1 overrides.
constexpr bool gather_adjacent(int dim, int degree, bool is_double)
{
  return dim == 2 && tuned(VPATCH_GATHER_ADJACENT, is_double || degree != 3);
}
// Elements per shared-memory vector load of an adjacent-points window: the largest of 4, 2, 1
// that divides the rows (so every thread's window starts aligned) and fits 16 bytes.
constexpr int gather_window_vector(int rows, int element_bytes)
{
  return rows % 4 == 0 && 4 * element_bytes <= 16 ? 4 : rows % 2 == 0 ? 2 : 1;
}
// The gather's coefficients along the marching direction: per plane the W (M, K) pairs that
// scatter it into the pending outputs, stored contiguously per plane and read as 16-byte
// vectors (2W / 4 float or 2W / 2 double loads per plane instead of 2W), or as the outputs'
// rows (one load per coefficient). Kept where they gained in every call that measured them
// (H100, calls A, B, C, I; bench/NOTES.md "Adjacent points, 128-thread blocks and packed
// coefficients"): 3D double k = 3 (residual 69.0 -> 73.8 GDoF/s, apply 84.4 -> 86.0), 2D float
// apply k = 4..6, 9, 10 (k = 4 256 -> 270, k = 5 +2..+3%, k = 6 209 -> 220, k = 9 110 -> 147),
// residual k = 5, 8 (k = 8 113 -> 129), the 2D double k = 9 residual (47.7 -> 51.6). With 128
// threads they cost 2D double k = 3, 5, 8..10 7-24% (k = 8 apply 104.3 -> 79.2) and the 2D
// float k = 3 residual 13%. -DVPATCH_GATHER_PACKED_Z=0/1 overrides.
constexpr bool gather_packed_z(int dim, int degree, bool is_double, bool residual)
{
  const bool on = dim == 3   ? is_double && degree == 3
                   : is_double ? degree == 9 && residual
                               : residual ? degree == 5 || degree == 8 : degree >= 4 && degree != 7 && degree != 8;
  return tuned(VPATCH_GATHER_PACKED_Z, on);
}
// Threads per block of the gather operator (3D: 32 x threads / 32, 2D: threads along x): 128
// or 256. At 160-238 registers a thread an SM holds one block of 256 (8 warps); blocks of 128
// give 8 warps in two blocks whose barriers are independent (up to about 200 registers) or
// 12 warps in three (up to about 170: 2D double k = 5, 3D k = 3). H100, call C (same call,
// GDoF/s, 256 -> 128): 3D float k = 3 apply 138.6 -> 164.1, residual 109.5 -> 137.6; 3D double
// k = 3 77.3 -> 84.4, residual 63.3 -> 69.0; 2D double k = 5 112.1 -> 139.9, k = 8 86.7 ->
// 104.3, residuals -12..+40%; 256 stays for the 3D k = 1 apply form (281.0 against 251.2), the
// 3D double k = 2 residual (96.5 against 90.6), 2D float k = 6, 7 and the apply form at k = 1,
// 2, 5 (k = 5 apply 232.5 against 193.9, k = 6 residual 134.8 against 122.8) and the 2D double
// k = 9 residual (47.8 against 42.0). The 3D float k = 1 residual measured 192.8 -> 203.5
// (call C) and 192.1 -> 205.5 (call I), where other calls ran 256 threads at 209-210 on other
// H100s. -DVPATCH_GATHER_THREADS=T overrides (T >= 32, a multiple of 32).
constexpr int gather_threads(int dim, int degree, bool is_double, bool residual)
{
  const bool wide = dim == 3 ? (degree == 1 && !residual) || (degree == 2 && is_double && residual)
                             : is_double ? degree == 9 && residual
                                         : degree == 6 || degree == 7 || (!residual && (degree <= 2 || degree == 5));
  return tuned(VPATCH_GATHER_THREADS, wide ? 256 : 128);
}
// 2D adjacent points: each warp copies its own halo tile of the plane (32 R + 2k values) into
// its own part of the ring and waits only for it (__syncwarp), instead of the block copying
// one tile and waiting at a __syncthreads per plane (Nsight Compute, 2D float k = 5 MatMult:
// one block of 8 warps per SM at 212 registers, barrier stalls a third of before, issue slots
// 58% -> 64% busy; bench/NOTES.md, "Warp rings"). H100, two calls, GDoF/s gained: float MatMult k =
// 5..7, 9 +5..+7%, residual k = 6, 7 +6..+9%; double MatMult k = 8 +4.5%, residual k = 4, 6,
// 10 +2.5..+5%; lost at float k = 1, 2, 4 (-9..-11% MatMult: the warps' halos, 2k values per
// 32 R, are read and copied once per warp) and k = 10 float MatMult (-13%). Kept where it
// gained more than 2% in both calls (with the rows of gather_rows_2d; at double k = 4, with 2
// rows, over 2 rows alone: MatMult +3.1..+3.2%, residual +0.3..+0.4%, calls C, D).
// -DVPATCH_GATHER_WARP_RINGS=0/1 overrides.
constexpr bool gather_warp_rings(int dim, int degree, bool is_double, bool residual)
{
  const bool on = is_double ? (residual ? degree == 4 || degree == 6 || degree == 10 : degree == 4 || degree == 8)
                            : (residual ? degree == 6 || degree == 7 : (degree >= 5 && degree <= 7) || degree == 9);
  return dim == 2 && gather_adjacent(dim, degree, is_double) && tuned(VPATCH_GATHER_WARP_RINGS, on);
}
constexpr int gather_min_blocks_per_sm(int dim, int degree, bool is_double, bool corrected = false)
{
  const int blocks = tuned(VPATCH_GATHER_MIN_BLOCKS, 0);
  return corrected ? tuned(VPATCH_GATHER_MIN_BLOCKS_CORRECTED, blocks) : blocks;
}

// k = 1 transfers by columns (restrict_k1_kernel, prolongate_k1_kernel: 2D, and 3D where
// tiled_transfers is off, -DVPATCH_TRANSFER_TILES=0): planes along the marching
// direction per block (restriction: coarse planes, prolongation: fine planes, even). Long
// chunks left the restriction with fewer threads than the GPU holds (3D, 50M fine DoF:
// 185^2 columns x 6 chunks of 32), each a long chain of dependent loads; shorter ones
// recompute one plane sum per chunk. H100, same-call A/B (bench/NOTES.md, "k = 1
// transfers"), prolongation + restriction GDoF/s from 32 / 32: 3D (4, 8) float 105.9 ->
// 118.0, double 66.0 -> 69.9 (2, 4: 114.9 / 69.4; 1, 2: 101.1 / 63.6); 2D (1, 2) float
// 108.4 -> 116.2, double 67.8 -> 75.9. -DVPATCH_K1_RESTRICT_CHUNK=C, -DVPATCH_K1_PROLONG_CHUNK=C.
constexpr int k1_restrict_chunk(int dim) { return tuned(VPATCH_K1_RESTRICT_CHUNK, dim == 3 ? 4 : 1); }
constexpr int k1_prolong_chunk(int dim) { return tuned(VPATCH_K1_PROLONG_CHUNK, dim == 3 ? 8 : 2); }

// Cells per block of laplace_apply (threads per cell (k+1)^2) and of the transfer kernels
// (threads per coarse cell (2k+1)^2): about 128 threads or more per block.
// -DVPATCH_TRANSFER_CELLS=C overrides the transfers' (H200, 3D k = 3, 7M fine DoF, ncu
// launch times, float / double: restriction 67.2 / 76.8 us with 2 cells, 74.8 / 85.6 with
// 1, 64.8 / 79.1 with 4; prolongation within 1% with 4).
constexpr int cells_per_block_laplace(int dim, int degree)
{
  return (degree + 1) * (degree + 1) >= 128 ? 1 : (128 + (degree + 1) * (degree + 1) - 1) / ((degree + 1) * (degree + 1));
}
// Whether the cells of laplace_kernel lie a bank-aligned stride apart (common.cuh,
// bank_stride); -DVPATCH_CELL_PAD=0/1 overrides. H200, MatMult (bench/NOTES.md,
// "Interior-plane threads and bank-aligned strides"): 3D float k = 3 64.7 -> 67.6 GDoF/s (8
// cells of 16 threads, stride 192 = 0 mod 32: every warp's two cells hit the same banks),
// 3D double k = 4 41.5 -> 44.2, float k = 6 77.8 -> 80.5; the rest within +-2%. The same
// padding of the transfer kernels' cells (3D k = 2, 3) changed nothing (within 3%).
constexpr bool pad_cell_stride(int dim, int degree) { return tuned(VPATCH_CELL_PAD, 1); }
// Whether the 3D prolongation / restriction runs by tiles of coarse cells marching along z
// (transfer_tiles.cuh) instead of one coarse cell per thread group (k = 1: one thread per
// column); -DVPATCH_TRANSFER_TILES=0/1 overrides. H200, prolongation + restriction at 50M
// fine DoF (bench/NOTES.md, "Transfers by tiles"), GDoF/s cells -> tiles (32 x 24 points):
// float k = 2 93 -> 189, k = 3 85 -> 164, k = 4 97 -> 163, k = 5 100 -> 138, k = 6 110 ->
// 136; double k = 2 71 -> 96, k = 3 72 -> 93. With the tile shapes below (H100, same call,
// bench/NOTES.md "Tile shapes of the 3D transfers"): k = 1 float 118 -> 149, double 70 -> 87
// (columns -> tiles); float k = 7 96 -> 117; double k = 4 57 -> 69, k = 5 57 -> 69, k = 8
// 41 -> 43. The restriction keeps cells for float k = 8 and double k = 6, 7 (the pair 105
// against 102, 56 / 48 against 55 / 50). Taken apart (H100, forty-third session, call E,
// bench/NOTES.md "Overwriting prolongation"; 3 rounds, the prolongation alone, GDoF/s, cells
// -> tiles, adding / overwriting): double k = 6 100 -> 130 / 153 -> 168, k = 7 104 -> 151 /
// 154 -> 172, float k = 8 163 -> 259 / 222 -> 296, while the pair by tiles lost (double k =
// 7 61 -> 47, float k = 8 110 -> 81): the prolongation by tiles at every 3D degree, the
// restriction as before. At k = 9, 10 (call I; the prolongation by tiles does not spill) the prolongation by tiles
// adding: float 163 -> 239 / 165 -> 229, double 55 -> 114 / 61 -> 75 (overwriting double k = 10
// 119 -> 97, the rest faster), the pair float 102 -> 127 / 99 -> 118, double 38 -> 59 / 38 -> 42.
constexpr bool tiled_transfers(int dim, int degree, bool is_double, bool restriction)
{
  return dim == 3 && tuned(VPATCH_TRANSFER_TILES, !restriction || (is_double ? degree <= 5 || degree == 8 : degree <= 7));
}
// The shape of a transfer tile: the fine points it targets along x (about one warp's row)
// and y, turned into whole coarse cells of 2k points, and the coarse cells a block marches
// through along z. Default 32 x 24 points, 16 / k cells (at least 2); same-call sweeps of
// shapes (H100, prolongation + restriction at 50M fine DoF; two calls agreed to 0.3%)
// changed: float k = 2 64 x 16 (+1.9%), double k = 2 32 x 16 (+5.2%), k = 3 chunks of 3
// (+1.8% float, +2.0% double), float k = 4 32 x 16 (+2.6%), float k = 5 32 x 32 (3 cells
// along y: +8.4%); where tiles replace cells, the shape that won: one cell along y for double
// k = 4, 5 and float k = 7, one cell along x and y for double k = 8 (the thread's registers:
// a window of k + 1 values and 2 (k + 1) weights per point); k = 1 64 x 24 with the pipelined
// tiles below (H200, forty-ninth session: float prolongation 296 -> 338, the pair 205 -> 226,
// double pair 126 -> 131). -DVPATCH_TRANSFER_TILE_FX /
// _FY / _CHUNK override them.
constexpr int transfer_tile_cells(int fine_points, int degree) { return (fine_points + degree) / (2 * degree) > 0 ? (fine_points + degree) / (2 * degree) : 1; }
constexpr int transfer_tile_fine_x(int degree, bool is_double)
{
  if (degree == 1 || (degree == 2 && !is_double)) return 64;
  if (degree == 8 && is_double) return 16;
  return 32;
}
constexpr int transfer_tile_fine_y(int degree, bool is_double)
{
  switch (degree) {
  case 2: return 16;
  case 4: return is_double ? 8 : 16;
  case 5: return is_double ? 8 : 32;
  case 7: return 16;
  case 8: return 16;
  default: return 24;
  }
}
constexpr int transfer_tile_cells_x(int degree, bool is_double) { return transfer_tile_cells(tuned(VPATCH_TRANSFER_TILE_FX, transfer_tile_fine_x(degree, is_double)), degree); }
constexpr int transfer_tile_cells_y(int degree, bool is_double) { return transfer_tile_cells(tuned(VPATCH_TRANSFER_TILE_FY, transfer_tile_fine_y(degree, is_double)), degree); }
constexpr int transfer_tile_chunk(int degree) { return tuned(VPATCH_TRANSFER_TILE_CHUNK, degree == 3 ? 3 : 16 / degree > 2 ? 16 / degree : 2); }
// Whether a transfer tile copies the next step's planes while it works on this step's (two
// buffers of the copied planes in shared memory, cp.async groups): the prolongation's fine
// and coarse planes of the next coarse cell, the restriction's next group of fine planes.
// Without it every step waits for its own copies, which at k = 1 (two fine planes a step)
// left the float prolongation at 48% of the H200's HBM bandwidth (bench/NOTES.md,
// "Pipelined transfer tiles"; H200, 135M DoF, GDoF/s without -> with): adding prolongation
// k = 1 float 271 -> 299, k = 3 float 299 -> 361, k = 5 double 173 -> 204, k = 6 float 289
// -> 246 and double 149 -> 135, double k = 7, 8 -3% / -5%; restriction +3..+22% but float k = 4
// (-6%). The overwriting prolongation is never pipelined (-6..-19% at k = 1..4).
// -DVPATCH_TRANSFER_PREFETCH=0/1 (adding prolongation), -DVPATCH_TRANSFER_PREFETCH_R=0/1
// (restriction) override.
constexpr bool transfer_tile_prefetch(int degree, bool is_double, bool restriction)
{
  if (restriction) return tuned(VPATCH_TRANSFER_PREFETCH_R, is_double || degree != 4);
  return tuned(VPATCH_TRANSFER_PREFETCH, degree <= 5 || (!is_double && degree <= 8 && degree != 6));
}

constexpr int cells_per_block_transfer(int dim, int degree)
{
  return tuned(VPATCH_TRANSFER_CELLS, (2 * degree + 1) * (2 * degree + 1) >= 96 ? 1 : 128 / ((2 * degree + 1) * (2 * degree + 1)));
}

} // namespace cuda
} // namespace vpatch
