// Shared-memory layout of the smoother kernel's tensors (patch_kernel, host and device
// usable, no CUDA headers): for every stage's output tensor, its element strides, the
// distance between the tensors of consecutive patches of a block, and its offset in the
// block's tensor buffer; and, per stage, which of the two thread coordinates runs fastest
// over the thread index. Where a warp's lanes land on the 32 shared-memory banks depends
// on all of these, and each stage reads one tensor in one pattern and writes the next in
// another, so one layout for all tensors (the compact default) leaves some stages with
// bank conflicts; a tuned layout gives each tensor its own strides (bench/bank_conflicts.py
// scores layouts and searches them).
#pragma once
#include "tuning.hpp"

namespace vpatch {
namespace cuda {

// Element (x, y, z) of the tensor of patch g lies at base + g ps + x sx + y sy + z sz
// (elements from the start of the block's tensor buffer); the second tensor of a pair (the
// mass and stiffness results of the residual's x and y contractions) `pair` further.
struct TensorLayout {
  int sx, sy, sz, ps, base, pair;
};

// The stage tensors: the closure x (n^d), a = M_0 x | c = K_0 x (m n^{d-1}, a pair),
// 3D: u | v (m m n, a pair), the residual r (m^d), then the local solve's intermediate
// tensors (after S^T x, S^T y, [S^T z,] S x, [S y]; 2d - 1 of them).
enum PatchTensor : int { Closure, MassStiffnessX, MassStiffnessY, Residual, Solve0, NumPatchTensors = Solve0 + 5 };
// The stages whose thread map the layout chooses (thread coordinates of each: the plane
// (x, y) of the gather and of the z contractions, (y, z) of x lines, (x, z) of y lines).
enum PatchStage : int { GatherStage, ResidualX, ResidualY, ResidualZ, SolveStage0, NumPatchStages = SolveStage0 + 6 };

struct PatchLayout {
  TensorLayout t[NumPatchTensors];
  bool swap[NumPatchStages]; // the stage's second thread coordinate runs fastest
  bool uv_in_place;          // u, v overwrite a, c (the default layout) instead of another buffer
  int size;                  // elements of the block's tensor buffer
};

// The compact default (paper Fig. 13c/d): every patch a record of `stride` elements,
// buffer A = the closure (n^d), then B0 and B1 (m n^{d-1} each); tensors x fastest with
// their own extents (padded: in n^d frames); the stages alternate between A and B0, u, v
// overwrite a, c.
constexpr PatchLayout default_patch_layout(int n, int m, bool padded, int sizeA, int halfB, int stride, int patches)
{
  PatchLayout L{};
  auto frame = [&](int e0, int e1, int base, int pair) {
    return padded ? TensorLayout{1, n, n * n, stride, base, pair} : TensorLayout{1, e0, e0 * e1, stride, base, pair};
  };
  const int A = 0, B0 = sizeA;
  L.t[Closure] = frame(n, n, A, 0);
  L.t[MassStiffnessX] = frame(m, n, B0, halfB);
  L.t[MassStiffnessY] = frame(m, m, B0, halfB);
  L.t[Residual] = frame(m, m, A, 0);
  for (int s = 0; s < 5; ++s) L.t[Solve0 + s] = frame(m, m, s % 2 == 0 ? B0 : A, 0);
  L.uv_in_place = true;
  L.size = patches * stride;
  return L;
}

// The searched layouts of the 3D Fused kernel (and Global, which runs it) with contractions
// by lines, for the launch shapes of tuning.hpp they were searched for (threads per patch,
// patches per block; bench/bank_conflicts.py, SHAPES): the stages alternate between two
// buffers, A (closure, u | v, the solve's first, third and fifth tensors) and B (a | c, r,
// the second and fourth), and u, v no longer overwrite a, c. Wavefronts per block of the
// loads and stores, compact default -> searched (ideal): k = 2 (float and double alike)
// 619 -> 449 (319) float, 1224 -> 698 (576) double; k = 3 (both) 1148 -> 806 (680),
// 2030 -> 1392 (1288); k = 4 float 1367 -> 774 (737); k = 4 double 1080 -> 728 (728). With
// two of the solve's contractions in registers (tuning.hpp fused_solve), compact -> searched
// (ideal): k = 2 559 -> 413 (283), 1092 -> 638 (516); k = 3 1028 -> 726 (600), 1790 -> 1232
// (1128); k = 4 float 1143 -> 662 (625), double 884 -> 616 (616).
// -DVPATCH_TUNED_LAYOUT=0 keeps the compact default everywhere.
#ifndef VPATCH_TUNED_LAYOUT
#define VPATCH_TUNED_LAYOUT -1
#endif
// A layout printed by bench/bank_conflicts.py --search for a launch shape (threads per
// patch, patches per block): per tensor {sx, sy, sz, ps, buffer, pair} (buffer 0: A, 1: B,
// which starts a_size elements after A), the stages' swaps (0/1) and B's size, and the local
// solve it was searched for: 0 all six contractions through shared memory, 1 two of them in
// registers (tuning.hpp fused_solve: the stages S^T x, y line, S x, S z read the residual,
// Solve0, +1, +2; the entries of Solve0 + 3, 4 and the swaps of stages 6 and 8 are unused).
struct SearchedLayout {
  int degree, precision; // precision: 0 float, 1 double, -1 both
  int threads, patches;
  int t[NumPatchTensors][6];
  int swap[NumPatchStages];
  int a_size, b_size;
  int registers;
};
inline constexpr SearchedLayout searched_layouts[] = {
  {2, -1, 15, 8,
   {{1, 5, 25, 125, 0, 0}, {25, 1, 5, 155, 1, 75}, {5, 18, 1, 111, 0, 51}, {1, 3, 33, 105, 1, 0}, {1, 33, 11, 99, 0, 0},
    {3, 1, 33, 105, 1, 0}, {1, 11, 33, 99, 0, 0}, {1, 33, 3, 105, 1, 0}, {11, 1, 33, 99, 0, 0}},
   {0, 0, 1, 0, 1, 1, 1, 0, 0, 0}, 1000, 1235},
  {3, -1, 25, 5,
   {{1, 7, 49, 345, 0, 0}, {1, 35, 5, 509, 1, 245}, {1, 37, 5, 377, 0, 183}, {1, 5, 33, 185, 1, 0}, {5, 37, 1, 185, 0, 0},
    {5, 1, 33, 185, 1, 0}, {5, 1, 37, 185, 0, 0}, {1, 33, 5, 185, 1, 0}, {1, 5, 37, 185, 0, 0}},
   {0, 1, 0, 0, 1, 1, 1, 0, 0, 0}, 1874, 2526},
  {4, 0, 63, 2,
   {{1, 9, 81, 729, 0, 0}, {81, 1, 9, 1143, 1, 567}, {9, 63, 1, 889, 0, 441}, {1, 7, 65, 465, 1, 0}, {7, 71, 1, 497, 0, 0},
    {7, 1, 65, 465, 1, 0}, {7, 1, 71, 497, 0, 0}, {1, 65, 7, 465, 1, 0}, {1, 7, 71, 497, 0, 0}},
   {0, 0, 1, 0, 1, 1, 1, 0, 0, 0}, 1771, 2277},
  // one patch per block: the patch strides do not matter, only the element strides
  {4, 1, 63, 1,
   {{1, 9, 81, 729, 0, 0}, {1, 63, 7, 1134, 1, 567}, {7, 1, 49, 882, 0, 441}, {1, 7, 49, 343, 1, 0}, {1, 49, 7, 343, 0, 0},
    {7, 1, 49, 343, 1, 0}, {1, 7, 49, 343, 0, 0}, {1, 49, 7, 343, 1, 0}, {7, 1, 49, 343, 0, 0}},
   {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 882, 1134},
  // the same shapes for the solve with two contractions in registers (bench/bank_conflicts.py
  // --search without --six-stage-solve); the entries of Solve0 + 3, 4 repeat Solve0 + 2's
  {2, -1, 15, 8,
   {{1, 5, 25, 125, 0, 0}, {25, 1, 5, 155, 1, 75}, {5, 18, 1, 111, 0, 51}, {1, 3, 33, 105, 1, 0}, {1, 33, 11, 99, 0, 0},
    {1, 33, 11, 99, 1, 0}, {1, 3, 33, 105, 0, 0}, {1, 3, 33, 105, 0, 0}, {1, 3, 33, 105, 0, 0}},
   {0, 0, 1, 0, 1, 1, 0, 1, 0, 0}, 1000, 1235, 1},
  {3, -1, 25, 5,
   {{1, 7, 49, 345, 0, 0}, {1, 35, 5, 509, 1, 245}, {1, 37, 5, 377, 0, 183}, {1, 5, 33, 185, 1, 0}, {5, 37, 1, 185, 0, 0},
    {5, 37, 1, 185, 1, 0}, {1, 5, 33, 185, 0, 0}, {1, 5, 33, 185, 0, 0}, {1, 5, 33, 185, 0, 0}},
   {0, 1, 0, 0, 1, 1, 0, 1, 0, 0}, 1874, 2526, 1},
  {4, 0, 63, 2,
   {{1, 9, 81, 729, 0, 0}, {81, 1, 9, 1143, 1, 567}, {9, 63, 1, 889, 0, 441}, {1, 7, 65, 465, 1, 0}, {7, 71, 1, 497, 0, 0},
    {7, 71, 1, 497, 1, 0}, {1, 7, 65, 465, 0, 0}, {1, 7, 65, 465, 0, 0}, {1, 7, 65, 465, 0, 0}},
   {0, 0, 1, 0, 1, 1, 0, 1, 0, 0}, 1771, 2277, 1},
  {4, 1, 63, 1,
   {{1, 9, 81, 729, 0, 0}, {1, 63, 7, 1134, 1, 567}, {7, 1, 49, 882, 0, 441}, {1, 7, 49, 343, 1, 0}, {1, 49, 7, 343, 0, 0},
    {1, 49, 7, 343, 1, 0}, {1, 7, 49, 343, 0, 0}, {1, 7, 49, 343, 0, 0}, {1, 7, 49, 343, 0, 0}},
   {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 882, 1134, 1},
};
// The entry for this 3D launch shape, or nullptr (then the compact default applies).
constexpr const SearchedLayout *find_searched_layout(int dim, int degree, bool is_double, int threads, int patches,
                                                     bool fused_by_lines, bool registers)
{
  if (!fused_by_lines || dim != 3 || !tuned(VPATCH_TUNED_LAYOUT, 1)) return nullptr;
  for (const SearchedLayout &s : searched_layouts)
    if (s.degree == degree && (s.precision < 0 || s.precision == (is_double ? 1 : 0)) && s.threads == threads &&
        s.patches == patches && (s.registers != 0) == registers)
      return &s;
  return nullptr;
}
constexpr bool has_searched_layout(int dim, int degree, bool is_double, int threads, int patches, bool fused_by_lines, bool registers)
{
  return find_searched_layout(dim, degree, is_double, threads, patches, fused_by_lines, registers) != nullptr;
}
constexpr PatchLayout searched_patch_layout(int degree, bool is_double, int threads, int patches, bool registers)
{
  PatchLayout L{};
  if (const SearchedLayout *f = find_searched_layout(3, degree, is_double, threads, patches, true, registers)) {
    const SearchedLayout &s = *f;
    for (int i = 0; i < NumPatchTensors; ++i)
      L.t[i] = {s.t[i][0], s.t[i][1], s.t[i][2], s.t[i][3], s.t[i][4] ? s.a_size : 0, s.t[i][5]};
    for (int j = 0; j < NumPatchStages; ++j) L.swap[j] = s.swap[j] != 0;
    L.uv_in_place = false;
    L.size = s.a_size + s.b_size;
  }
  return L;
}

} // namespace cuda
} // namespace vpatch
