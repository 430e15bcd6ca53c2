// The paper's test problem: -Laplace u = f on [0,1]^d, u = prod_i sin(pi x_i),
// f = d pi^2 u. Right-hand side and L2 error with the (k+1)-point Gauss rule per direction.
#pragma once
#include "cpu/kernels_cpu.hpp"
#include "element1d.hpp"
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace vpatch {

// 1D load vector of g on the whole line of n = cells k + 1 points (Gauss rule per cell).
template <typename G>
inline std::vector<double> load_1d(const Element1D &e, int cells, G &&g)
{
  const int k = e.k, nb = k + 1;
  const double h = 1.0 / cells;
  std::vector<double> b(static_cast<size_t>(cells) * k + 1, 0.0);
  for (int c = 0; c < cells; ++c)
    for (int q = 0; q < nb; ++q) {
      const double wf = e.qweights[q] * h * g((c + e.qpoints[q]) * h);
      for (int a = 0; a < nb; ++a) b[c * k + a] += wf * e.shape[q * nb + a];
    }
  return b;
}

// b_owned = integral of f phi_i for a separable f = f0 prod_i g(x_i) (so is the Gauss
// rule): the tensor product of 1D load vectors; zero on the boundary.
// By rows of x (threaded over the rows when built with OpenMP): the same products as point by
// point, without a boundary test and an index per point.
template <typename Number, typename G>
void separable_rhs(const Box &box, const Element1D &e, double f0, G &&g, Number *b)
{
  const std::vector<double> b1 = load_1d(e, box.cells, g);
  const int i0 = box.os[0], i1 = box.os[0] + box.om[0];
  const int lo = std::max(i0, 1), hi = std::min(i1, box.n - 1); // interior points of a row
#pragma omp parallel for collapse(2) schedule(static)
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j) {
      Number *row = b + box.owned_index(i0, j, l) - i0;
      const bool boundary = box.on_boundary_1d(j) || (box.dim == 3 && box.on_boundary_1d(l));
      const double bj = b1[j], bl = box.dim == 3 ? b1[l] : 1.0;
      for (int i = i0; i < i1; ++i) row[i] = Number(0);
      if (!boundary)
        for (int i = lo; i < hi; ++i) row[i] = Number(f0 * b1[i] * bj * bl);
    }
}

// f = d pi^2 prod_i sin(pi x_i), the right-hand side of u = prod_i sin(pi x_i).
template <typename Number>
void sine_rhs(const Box &box, const Element1D &e, Number *b)
{
  separable_rhs(box, e, box.dim * M_PI * M_PI, [](double x) { return std::sin(M_PI * x); }, b);
}

// f = 1 (the right-hand side of the paper's Tables 1 and 2).
template <typename Number>
void constant_rhs(const Box &box, const Element1D &e, Number *b)
{
  separable_rhs(box, e, 1.0, [](double) { return 1.0; }, b);
}

// The coordinate of support point i along a direction of a mesh of `cells` cells (the
// Gauss-Lobatto points of each cell; i = cells k is the last point, x = 1).
inline double support_coordinate(const Element1D &e, int cells, int i)
{
  const int c = i / e.k, a = i - c * e.k;
  return (c + e.support[a]) / cells;
}

// The coordinates of support point (i, j, l) (x[2] = 0 in 2D).
inline void support_point(const Box &box, const Element1D &e, int i, int j, int l, double x[3])
{
  x[0] = support_coordinate(e, box.cells, i);
  x[1] = support_coordinate(e, box.cells, j);
  x[2] = box.dim == 3 ? support_coordinate(e, box.cells, l) : 0.0;
}

// local += the integrals of f phi_i over the owned cells, f(x) a function of the point (x[2] =
// 0 in 2D), by the (k+1)-point Gauss rule per direction (as the operator's matrices); the
// caller sums the ghosted local array into the owners and sets the boundary rows.
template <int dim, int k, typename F>
void load_vector(const Box &box, const Element1D &e, F &&f, double *local)
{
  constexpr int nb = k + 1, nc = cpu::tensor_size<dim, nb>();
  const double h = 1.0 / box.cells;
  std::array<double, nb * nb> shape_t; // shape_t[j][q] = phi_j(x_q)
  for (int q = 0; q < nb; ++q)
    for (int j = 0; j < nb; ++j) shape_t[j * nb + q] = e.shape[q * nb + j];
  std::array<double, nc> fq, be;
  std::array<double, 4 * nc> work;
  cpu::for_each_owned_cell(box, [&](int cx, int cy, int cz) {
    cpu::for_each_point<dim, nb>([&](int q, int a, int b, int c) {
      const double x[3] = {(cx + e.qpoints[a]) * h, (cy + e.qpoints[b]) * h, dim == 3 ? (cz + e.qpoints[c]) * h : 0.0};
      double w = e.qweights[a] * e.qweights[b] * h * h;
      if (dim == 3) w *= e.qweights[c] * h;
      fq[q] = w * f(x);
    });
    tensor_apply(dim, nb, nb, shape_t.data(), fq.data(), be.data(), work.data());
    cpu::for_each_point<dim, nb>([&](int q, int a, int b, int c) { local[box.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0)] += be[q]; });
  });
}

// local -= A u_g over the owned cells that touch the boundary, u_g = g at the boundary's
// support points and 0 inside (M, K: the level's 1D cell matrices, those of the operator):
// the interior rows' coupling to Dirichlet values g (the operator takes boundary values as
// zero and has identity boundary rows, whose right-hand side the caller sets to g).
template <int dim, int k, typename G>
void subtract_boundary_coupling(const Box &box, const Element1D &e, const double *M, const double *K, G &&g, double *local)
{
  constexpr int nb = k + 1, nc = cpu::tensor_size<dim, nb>();
  std::array<double, nc> ue, ye;
  std::array<double, 4 * nc> work;
  const auto touches = [&](int c) { return c == 0 || c == box.cells - 1; };
  cpu::for_each_owned_cell(box, [&](int cx, int cy, int cz) {
    if (!(touches(cx) || touches(cy) || (dim == 3 && touches(cz)))) return;
    cpu::for_each_point<dim, nb>([&](int q, int a, int b, int c) {
      const int i = cx * k + a, j = cy * k + b, l = dim == 3 ? cz * k + c : 0;
      double x[3];
      support_point(box, e, i, j, l, x);
      ue[q] = box.on_boundary(i, j, l) ? g(x) : 0.0;
    });
    kron_sum_apply(dim, nb, nb, M, K, ue.data(), ye.data(), work.data());
    cpu::for_each_point<dim, nb>([&](int q, int a, int b, int c) { local[box.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0)] -= ye[q]; });
  });
}

// Sum over owned cells of the squared L2 error of the Q_k function with the ghosted local
// values u_local against exact(x), by the (k+1)-point Gauss rule per direction. threaded:
// over z-slabs (or y-rows in 2D) when built with OpenMP (exact must then be thread-safe).
template <int dim, int k, typename U>
double l2_error_squared(const Box &box, const Element1D &e, const double *u_local, U &&exact, bool threaded)
{
  constexpr int nb = k + 1, nc = cpu::tensor_size<dim, nb>();
  const double h = 1.0 / box.cells;
  const int outer_begin = dim == 3 ? box.cs[2] : box.cs[1], outer_end = dim == 3 ? box.ce[2] : box.ce[1];
  double sum = 0.0;
  (void)threaded;
#pragma omp parallel for reduction(+ : sum) schedule(static) if (threaded)
  for (int outer = outer_begin; outer < outer_end; ++outer) {
    std::array<double, nc> ue, uq;
    std::array<double, 4 * nc> work;
    Box slab = box; // this thread's slab of cells
    slab.cs[dim - 1] = outer;
    slab.ce[dim - 1] = outer + 1;
    cpu::for_each_owned_cell(slab, [&](int cx, int cy, int cz) {
      cpu::for_each_point<dim, nb>([&](int q, int a, int b, int c) { ue[q] = u_local[box.local_index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0)]; });
      tensor_apply(dim, nb, nb, e.shape.data(), ue.data(), uq.data(), work.data());
      cpu::for_each_point<dim, nb>([&](int q, int a, int b, int c) {
        const double x[3] = {(cx + e.qpoints[a]) * h, (cy + e.qpoints[b]) * h, dim == 3 ? (cz + e.qpoints[c]) * h : 0.0};
        double w = e.qweights[a] * e.qweights[b] * h * h;
        if (dim == 3) w *= e.qweights[c] * h;
        const double d = uq[q] - exact(x);
        sum += w * d * d;
      });
    });
  }
  return sum;
}

// The squared L2 error against u = prod sin(pi x_i).
template <int dim, int k>
double sine_l2_error_squared(const Box &box, const Element1D &e, const double *u_local)
{
  return l2_error_squared<dim, k>(
    box, e, u_local,
    [](const double *x) {
      const double u = std::sin(M_PI * x[0]) * std::sin(M_PI * x[1]);
      return dim == 3 ? u * std::sin(M_PI * x[2]) : u;
    },
    true);
}

} // namespace vpatch
