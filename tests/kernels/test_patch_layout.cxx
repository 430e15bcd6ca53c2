// The searched shared-memory layouts of the 3D smoother (src/cuda/patch_layout.hpp) on the
// host: for the launch shapes tuning.hpp gives (threads per patch, patches per block) and its
// local solve (six contractions through shared memory, or two of them in registers:
// fused_solve), the kernel must use a searched layout (3D k = 2, 3, 4, float and double), and
// every layout there is for either solve
// must place each stage tensor of every patch of a block (both tensors of a pair) on
// distinct elements inside its buffer, with each stage's input and output tensors
// disjoint (no stage works in place there). A wrong entry in a layout table would make the
// kernel overwrite values it still reads; this catches it without a GPU.
#include "cuda/patch_layout.hpp"
#include <cstdio>
#include <set>
#include <vector>

using namespace vpatch::cuda;

static int failures = 0;
static void check(bool ok, const char *what, int k, bool dbl, bool regs, int tensor)
{
  if (!ok) {
    std::printf("FAIL: 3D k = %d %s (%s), tensor %d: %s\n", k, dbl ? "double" : "float", regs ? "registers" : "six stages", tensor, what);
    ++failures;
  }
}

int main()
{
  for (int k = 2; k <= 4; ++k) {
    for (bool dbl : {false, true}) {
      for (bool regs : {false, true}) {
        const int n = 2 * k + 1, m = 2 * k - 1, P = patches_per_block(3, k, dbl);
        const int plane = patch_thread_plane(3, k, dbl), T = plane == ClosurePlane ? n * n : plane == ResidualPlane ? m * n : m * m;
        const bool lines = launch_matrices(3, k, dbl) && line_contractions(3, k, dbl);
        const bool kernel_regs = solve_in_registers(3, k, dbl); // PatchPlan::solve_in_registers
        if (!has_searched_layout(3, k, dbl, T, P, lines, regs)) {
          if (regs != kernel_regs) continue; // a layout for the solve the kernel does not run: optional
          std::printf("FAIL: 3D k = %d %s: no searched layout for %d threads x %d patches, %s (rerun bench/bank_conflicts.py --search)\n",
                      k, dbl ? "double" : "float", T, P, regs ? "registers" : "six stages");
          ++failures;
          continue;
        }
        const PatchLayout L = searched_patch_layout(k, dbl, T, P, regs);
        const int tensors = regs ? Solve0 + 3 : NumPatchTensors; // (the solve in registers writes no Solve0 + 3, 4)
        int b_start = L.size; // buffer B begins at the lowest nonzero base
        for (const TensorLayout &t : L.t)
          if (t.base > 0 && t.base < b_start) b_start = t.base;
        const int ext[NumPatchTensors][3] = {{n, n, n}, {m, n, n}, {m, m, n}, {m, m, m}, {m, m, m},
                                             {m, m, m}, {m, m, m}, {m, m, m}, {m, m, m}};
        std::vector<std::set<int>> used(NumPatchTensors);
        for (int i = 0; i < tensors; ++i) {
          const TensorLayout &t = L.t[i];
          const int pairs = (i == MassStiffnessX || i == MassStiffnessY) ? 2 : 1;
          const int lo = t.base == 0 ? 0 : b_start, hi = t.base == 0 ? b_start : L.size;
          bool distinct = true, inside = true;
          long count = 0;
          for (int g = 0; g < P; ++g)
            for (int j = 0; j < pairs; ++j)
              for (int z = 0; z < ext[i][2]; ++z)
                for (int y = 0; y < ext[i][1]; ++y)
                  for (int x = 0; x < ext[i][0]; ++x) {
                    const int a = t.base + g * t.ps + j * t.pair + x * t.sx + y * t.sy + z * t.sz;
                    distinct = used[i].insert(a).second && distinct;
                    inside = inside && a >= lo && a < hi;
                    ++count;
                  }
          check(distinct, "two elements share an address", k, dbl, regs, i);
          check(inside, "an element lies outside its buffer", k, dbl, regs, i);
          if (i > 0) { // the stage that reads tensor i - 1 writes tensor i
            bool disjoint = true;
            for (int a : used[i]) disjoint = disjoint && !used[i - 1].count(a);
            check(disjoint, "overlaps the stage's input tensor", k, dbl, regs, i);
          }
          std::printf("3D k = %d %-6s %-10s tensor %d: %ld elements, %s, %s\n", k, dbl ? "double" : "float", regs ? "registers" : "six stages", i, count,
                      distinct ? "distinct" : "OVERLAPPING", inside ? "inside its buffer" : "OUTSIDE its buffer");
        }
      }
    }
  }
  std::printf("%s\n", failures ? "FAILED" : "all layouts valid");
  return failures ? 1 : 0;
}
