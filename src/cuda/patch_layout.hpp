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

// Whether the smoother kernel uses the tuned layout below instead of the compact default:
// 3D k = 3, the Fused kernel (and Global, which runs it) with 5 patches of 25 threads and
// contractions by lines; -DVPATCH_TUNED_LAYOUT=0/1 overrides.
#ifndef VPATCH_TUNED_LAYOUT
#define VPATCH_TUNED_LAYOUT -1
#endif
constexpr bool tuned_patch_layout(int dim, int degree, int threads, int patches, bool fused_by_lines)
{
  return fused_by_lines && dim == 3 && degree == 3 && threads == 25 && patches == 5 && tuned(VPATCH_TUNED_LAYOUT, 1);
}

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

// 3D k = 3, 5 patches of 25 threads (bench/bank_conflicts.py --search: every stage's loads
// and stores conflict-free but the closure's and the x- and y-line residual stages', 806
// wavefronts per block in float (compact default: 1148), 1392 in double (2030)). The
// stages alternate between two buffers, A (closure, u | v, and the solve's first, third
// and fifth tensors) and B (a | c, r, the second and fourth); 4400 elements in all.
constexpr PatchLayout tuned_patch_layout_3d_k3()
{
  PatchLayout L{};
  const int A = 0, B = 1874;
  L.t[Closure] = {1, 7, 49, 345, A, 0};
  L.t[MassStiffnessX] = {1, 35, 5, 509, B, 245};
  L.t[MassStiffnessY] = {1, 37, 5, 377, A, 183};
  L.t[Residual] = {1, 5, 33, 185, B, 0};
  L.t[Solve0 + 0] = {5, 37, 1, 185, A, 0};
  L.t[Solve0 + 1] = {5, 1, 33, 185, B, 0};
  L.t[Solve0 + 2] = {5, 1, 37, 185, A, 0};
  L.t[Solve0 + 3] = {1, 33, 5, 185, B, 0};
  L.t[Solve0 + 4] = {1, 5, 37, 185, A, 0};
  const bool swap[NumPatchStages] = {false, true, false, false, true, true, true, false, false, false};
  for (int s = 0; s < NumPatchStages; ++s) L.swap[s] = swap[s];
  L.uv_in_place = false;
  L.size = B + 2526;
  return L;
}

} // namespace cuda
} // namespace vpatch
