// The searched shared-memory layouts of the 3D cell operator (src/cuda/cell_layout.hpp) on
// the host: each entry is for the launch shape tuning.hpp gives its degree (cells per
// block), is the one cell_layout() returns for that kernel, and places x, B0 and B1 of a
// cell on distinct elements of the cell's record (x first, then the pair), so that no stage
// overwrites values another still reads. A wrong entry fails here without a GPU.
#include "cuda/cell_layout.hpp"
#include <cstdio>
#include <set>

using namespace vpatch::cuda;

int main()
{
  int failures = 0;
  auto fail = [&](int k, const char *what) {
    std::printf("FAIL: 3D k = %d: %s\n", k, what);
    ++failures;
  };
  for (const SearchedCellLayout &s : searched_cell_layouts) {
    const int k = s.degree, nb = k + 1;
    const CellLayout &L = s.layout;
    if (s.cells != cells_per_block_laplace(3, k)) fail(k, "searched for another number of cells per block");
    if (s.bytes != 4 && s.bytes != 8) fail(k, "element size neither float nor double");
    const CellLayout used = cell_layout(k, cells_per_block_laplace(3, k), s.bytes, true, 3 * nb * nb * nb);
    if (used.xy != L.xy || used.xz != L.xz || used.by != L.by || used.bz != L.bz || used.cell != L.cell)
      fail(k, "cell_layout() does not return the entry");
    const int x_size = cell_tensor_size(k, nb, L.xy, L.xz), b_size = cell_tensor_size(k, nb, L.by, L.bz);
    std::set<int> elements;
    bool inside = true;
    long count = 0;
    for (int t = 0; t < 3; ++t) // x, B0, B1
      for (int l = 0; l < nb; ++l)
        for (int j = 0; j < nb; ++j)
          for (int i = 0; i < nb; ++i) {
            const int lo = t == 0 ? 0 : x_size + (t - 1) * b_size, hi = t == 0 ? x_size : lo + b_size;
            const int a = lo + i + j * (t == 0 ? L.xy : L.by) + l * (t == 0 ? L.xz : L.bz);
            inside = inside && a >= lo && a < hi;
            elements.insert(a);
            ++count;
          }
    if ((long)elements.size() != count) fail(k, "two elements share an address");
    if (!inside) fail(k, "an element lies outside its tensor");
    if (x_size + 2 * b_size > L.cell) fail(k, "the cell record is shorter than x, B0 and B1");
    std::printf("3D k = %d, %d-byte elements: %ld elements in a record of %d (x %d, B0 | B1 2 x %d), %s\n", k, s.bytes, count, L.cell,
                x_size, b_size,
                (long)elements.size() == count && inside ? "distinct, inside" : "INVALID");
  }
  std::printf("%s\n", failures ? "FAILED" : "all cell layouts valid");
  return failures ? 1 : 0;
}
