// CPU reference kernels on one rank's ghosted local arrays (see layout.hpp): the
// matrix-free Laplacian, its diagonal, the vertex-patch subspace corrections of one color,
// and the Q_k grid transfers. Templated on <dim, degree, Number>; no PETSc types. The CUDA
// kernels in src/cuda/ implement the same functions and are tested against these.
#pragma once
#include "../layout.hpp"
#include "../level_tables.hpp"
#include "../tensor.hpp"
#include <array>

namespace vpatch {
namespace cpu {

template <int dim, int n>
constexpr int tensor_size() { return dim == 2 ? n * n : n * n * n; }

// Loop over the index triples of an n^dim tensor, x fastest.
template <int dim, int n, typename F>
inline void for_each_point(F &&f)
{
  int q = 0;
  for (int c = 0; c < (dim == 3 ? n : 1); ++c)
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) f(q++, a, b, c);
}

// Loop over the owned cells (cx, cy, cz); cz = 0 in 2D.
template <typename F>
inline void for_each_owned_cell(const Box &box, F &&f)
{
  for (int cz = box.cs[2]; cz < box.ce[2]; ++cz)
    for (int cy = box.cs[1]; cy < box.ce[1]; ++cy)
      for (int cx = box.cs[0]; cx < box.ce[0]; ++cx) f(cx, cy, cz);
}

// y_local += sum over owned cells of A_K x_local, with x taken as zero on the domain
// boundary (the boundary rows are the caller's: identity).
template <int dim, int k, typename Number>
void laplace_apply(const Box &box, OperatorView<Number> op, const Number *x, Number *y)
{
  constexpr int nb = k + 1, nc = tensor_size<dim, nb>();
  std::array<Number, nc> xe, ye;
  std::array<Number, 4 * nc> work;
  for_each_owned_cell(box, [&](int cx, int cy, int cz) {
    for_each_point<dim, nb>([&](int q, int a, int b, int c) {
      const int i = cx * k + a, j = cy * k + b, l = dim == 3 ? cz * k + c : 0;
      xe[q] = box.on_boundary(i, j, l) ? Number(0) : x[box.local_index(i, j, l)];
    });
    kron_sum_apply(dim, nb, nb, op.mass, op.stiffness, xe.data(), ye.data(), work.data());
    for_each_point<dim, nb>([&](int q, int a, int b, int c) {
      y[box.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0)] += ye[q];
    });
  });
}

// d_local += the cell contributions to the diagonal of A.
template <int dim, int k, typename Number>
void laplace_diagonal(const Box &box, OperatorView<Number> op, Number *d)
{
  constexpr int nb = k + 1;
  for_each_owned_cell(box, [&](int cx, int cy, int cz) {
    for_each_point<dim, nb>([&](int, int a, int b, int c) {
      const Number ma = op.mass[a * nb + a], mb = op.mass[b * nb + b], ka = op.stiffness[a * nb + a], kb = op.stiffness[b * nb + b];
      Number v;
      if (dim == 2) v = ka * mb + ma * kb;
      else {
        const Number mc = op.mass[c * nb + c], kc = op.stiffness[c * nb + c];
        v = ka * mb * mc + ma * kb * mc + ma * mb * kc;
      }
      d[box.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0)] += v;
    });
  });
}

// Apply the patch inverse A_j^{-1} to r (n = (2k-1)^dim values) in place.
template <int dim, int k, typename Number>
inline void patch_inverse(PatchView<Number> p, LocalSolver solver, Number *r, Number *work)
{
  constexpr int ni = 2 * k - 1, n = tensor_size<dim, ni>();
  if (solver == LocalSolver::Dense) {
    Number *t = work;
    for (int i = 0; i < n; ++i) {
      Number s = 0;
      for (int j = 0; j < n; ++j) s += p.dense_inverse[(long)i * n + j] * r[j];
      t[i] = s;
    }
    for (int i = 0; i < n; ++i) r[i] = t[i];
    return;
  }
  Number *t = work, *w = work + n;
  tensor_apply(dim, ni, ni, p.eigenvectors_t, r, t, w);
  for_each_point<dim, ni>([&](int q, int a, int b, int c) {
    t[q] /= p.eigenvalues[a] + p.eigenvalues[b] + (dim == 3 ? p.eigenvalues[c] : Number(0));
  });
  tensor_apply(dim, ni, ni, p.eigenvectors, t, r, w);
}

// One color of vertex-patch corrections over the box's patches (Box::patch_begin/end):
// out_I += scale * A_j^{-1} r_j for every such patch j of the color (color < 0: all).
// rhs and x are ghosted local arrays; out may alias x (in-place multiplicative update:
// patches of one color never write points another one reads).
template <int dim, int k, typename Number>
void patch_correct(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual mode, int color, Number scale,
                   const Number *rhs, const Number *x, Number *out)
{
  constexpr int np = 2 * k + 1, ni = 2 * k - 1;
  constexpr int nfull = tensor_size<dim, np>(), nint = tensor_size<dim, ni>();
  std::array<Number, nfull> xp;
  std::array<Number, nint> r, ax;
  std::array<Number, 4 * nfull> work;
  for (int vz = box.patch_begin(2); vz < box.patch_end(2); ++vz)
    for (int vy = box.patch_begin(1); vy < box.patch_end(1); ++vy)
      for (int vx = box.patch_begin(0); vx < box.patch_end(0); ++vx) {
        if (color >= 0 && patch_color(dim, vx, vy, vz) != color) continue;
        const int i0 = (vx - 1) * k, j0 = (vy - 1) * k, l0 = dim == 3 ? (vz - 1) * k : 0;
        if (mode == PatchResidual::Local) {
          for_each_point<dim, np>([&](int q, int a, int b, int c) {
            const int i = i0 + a, j = j0 + b, l = dim == 3 ? l0 + c : 0;
            xp[q] = box.on_boundary(i, j, l) ? Number(0) : x[box.local_index(i, j, l)];
          });
          kron_sum_apply(dim, np, ni, p.mass_rows, p.stiffness_rows, xp.data(), ax.data(), work.data());
        }
        for_each_point<dim, ni>([&](int q, int a, int b, int c) {
          const Number v = rhs[box.local_index(i0 + 1 + a, j0 + 1 + b, dim == 3 ? l0 + 1 + c : 0)];
          r[q] = mode == PatchResidual::Local ? v - ax[q] : v;
        });
        patch_inverse<dim, k>(p, solver, r.data(), work.data());
        for_each_point<dim, ni>([&](int q, int a, int b, int c) {
          out[box.local_index(i0 + 1 + a, j0 + 1 + b, dim == 3 ? l0 + 1 + c : 0)] += scale * r[q];
        });
      }
}

// Rows of the 2k+1 fine points of a coarse cell that the cell writes: the last point
// belongs to the next coarse cell unless this is the last one.
inline int transfer_rows(int k, int coarse_cell, int coarse_cells) { return coarse_cell == coarse_cells - 1 ? 2 * k + 1 : 2 * k; }

// fine_owned += P coarse_local (add), or = P coarse_local: interpolation of the coarse Q_k
// function at the fine support points, zero on the domain boundary (coarse boundary values
// are ignored). Every owned fine point off the boundary is written; boundary points are
// left as they are (the caller zeroes them where it overwrites). The fine rank owns exactly
// the fine points inside its coarse cells (nested partitions).
template <int dim, int k, typename Number>
void prolongate(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xc, Number *xf, bool add)
{
  constexpr int nb = k + 1, np = 2 * k + 1;
  constexpr int ncoarse = tensor_size<dim, nb>(), nfine = tensor_size<dim, np>();
  std::array<Number, ncoarse> xe;
  std::array<Number, nfine> ye;
  std::array<Number, 4 * nfine> work;
  for_each_owned_cell(coarse, [&](int cx, int cy, int cz) {
    for_each_point<dim, nb>([&](int q, int a, int b, int c) {
      const int i = cx * k + a, j = cy * k + b, l = dim == 3 ? cz * k + c : 0;
      xe[q] = coarse.on_boundary(i, j, l) ? Number(0) : xc[coarse.local_index(i, j, l)];
    });
    tensor_apply(dim, nb, np, t.prolongation, xe.data(), ye.data(), work.data());
    const int rx = transfer_rows(k, cx, coarse.cells), ry = transfer_rows(k, cy, coarse.cells),
              rz = dim == 3 ? transfer_rows(k, cz, coarse.cells) : 1;
    for_each_point<dim, np>([&](int q, int a, int b, int c) {
      if (a >= rx || b >= ry || c >= rz) return;
      const int i = 2 * cx * k + a, j = 2 * cy * k + b, l = dim == 3 ? 2 * cz * k + c : 0;
      if (fine.on_boundary(i, j, l)) return;
      Number &o = xf[fine.owned_index(i, j, l)];
      o = add ? o + ye[q] : ye[q];
    });
  });
}

// coarse_local += P^T fine_owned, fine boundary values taken as zero; the caller adds
// the local array into the global coarse vector and zeroes the coarse boundary.
template <int dim, int k, typename Number>
void restrict_add(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xf, Number *xc)
{
  constexpr int nb = k + 1, np = 2 * k + 1;
  constexpr int ncoarse = tensor_size<dim, nb>(), nfine = tensor_size<dim, np>();
  std::array<Number, nfine> ye;
  std::array<Number, ncoarse> xe;
  std::array<Number, 4 * nfine> work;
  for_each_owned_cell(coarse, [&](int cx, int cy, int cz) {
    const int rx = transfer_rows(k, cx, coarse.cells), ry = transfer_rows(k, cy, coarse.cells),
              rz = dim == 3 ? transfer_rows(k, cz, coarse.cells) : 1;
    for_each_point<dim, np>([&](int q, int a, int b, int c) {
      const int i = 2 * cx * k + a, j = 2 * cy * k + b, l = dim == 3 ? 2 * cz * k + c : 0;
      ye[q] = (a >= rx || b >= ry || c >= rz || fine.on_boundary(i, j, l)) ? Number(0) : xf[fine.owned_index(i, j, l)];
    });
    tensor_apply(dim, np, nb, t.restriction, ye.data(), xe.data(), work.data());
    for_each_point<dim, nb>([&](int q, int a, int b, int c) {
      xc[coarse.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0)] += xe[q];
    });
  });
}

// Owned boundary points: dst = src (identity rows of A and of the smoother).
template <typename Number>
void copy_boundary(const Box &box, const Number *src, Number *dst)
{
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j)
      for (int i = box.os[0]; i < box.os[0] + box.om[0]; ++i)
        if (box.on_boundary(i, j, l)) dst[box.owned_index(i, j, l)] = src[box.owned_index(i, j, l)];
}

// Owned boundary points: dst = value.
template <typename Number>
void set_boundary(const Box &box, Number value, Number *dst)
{
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j)
      for (int i = box.os[0]; i < box.os[0] + box.om[0]; ++i)
        if (box.on_boundary(i, j, l)) dst[box.owned_index(i, j, l)] = value;
}

// The owned points between an owned (global vector) array and a ghosted local array:
// to_local: local = owned there; else owned = local there (owned += local with add).
template <typename Number>
void copy_owned(const Box &box, bool to_local, const Number *src, Number *dst, bool add = false)
{
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j) {
      const long o = box.owned_index(box.os[0], j, l), g = box.local_index(box.os[0], j, l);
      const Number *s = src + (to_local ? o : g);
      Number *d = dst + (to_local ? g : o);
      for (int i = 0; i < box.om[0]; ++i) d[i] = add ? d[i] + s[i] : s[i];
    }
}

} // namespace cpu
} // namespace vpatch
