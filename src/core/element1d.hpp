// One-dimensional matrices of the Q_k element on a uniform level: the cell mass and
// stiffness matrices (k+1 point Gauss quadrature, exact for them), the assembled matrices
// of a vertex patch (two cells), their fast-diagonalization factors, and the interpolation
// from a coarse cell to the two fine cells inside it. All on the host, in double.
#pragma once
#include "basis1d.hpp"
#include "linalg_small.hpp"
#include <vector>

namespace vpatch {

struct Element1D {
  int k = 0;
  std::vector<double> support;      // k+1 Gauss-Lobatto points on [0,1]
  std::vector<double> qpoints, qweights; // k+1 Gauss points and weights on [0,1]
  std::vector<double> shape;        // (k+1) x (k+1): shape[q*(k+1)+j] = phi_j(x_q)
  std::vector<double> dshape;       // derivatives, same layout
  std::vector<double> mass, stiffness; // reference cell [0,1], (k+1)^2, row-major
  std::vector<double> prolongation; // (2k+1) x (k+1): coarse basis at the 2k+1 fine points of a coarse cell

  explicit Element1D(int degree) : k(degree)
  {
    const int nb = k + 1, nq = k + 1;
    support = gauss_lobatto_points(k);
    gauss_rule(nq, qpoints, qweights);
    LagrangeBasis basis(support);
    shape.resize(nq * nb);
    dshape.resize(nq * nb);
    for (int q = 0; q < nq; ++q)
      for (int j = 0; j < nb; ++j) {
        shape[q * nb + j]  = basis.value(j, qpoints[q]);
        dshape[q * nb + j] = basis.derivative(j, qpoints[q]);
      }
    mass.assign(nb * nb, 0.0);
    stiffness.assign(nb * nb, 0.0);
    for (int i = 0; i < nb; ++i)
      for (int j = 0; j < nb; ++j)
        for (int q = 0; q < nq; ++q) {
          mass[i * nb + j] += qweights[q] * shape[q * nb + i] * shape[q * nb + j];
          stiffness[i * nb + j] += qweights[q] * dshape[q * nb + i] * dshape[q * nb + j];
        }
    mass = symmetrized(mass);
    stiffness = symmetrized(stiffness);
    prolongation.assign((2 * k + 1) * nb, 0.0);
    for (int f = 0; f < 2; ++f)
      for (int a = 0; a <= k; ++a) {
        const double xi = 0.5 * (f + support[a]);
        for (int b = 0; b < nb; ++b) prolongation[(f * k + a) * nb + b] = basis.value(b, xi);
      }
  }

  // The exact cell matrices are symmetric and, on the symmetric Gauss-Lobatto points,
  // unchanged by reversing the points, (i, j) -> (k-i, k-j); the quadrature sums are so only
  // to rounding. Each entry becomes the mean of its four images, summed in an order that
  // gives all four the same bits. Then the two cells' entries at a shared vertex are equal
  // and sum exactly (2a), so assembled 1D rows (the CUDA gather operator) give the same
  // operator as cell-by-cell sums; with the rounded vertex sums that operator differed
  // systematically (2D Q7, Q8 L2 errors 1.8e-13 -> 3.7e-13, 2.0e-14 -> 1.7e-13), and the
  // assembled matrices are symmetric bit for bit.
  std::vector<double> symmetrized(const std::vector<double> &A) const
  {
    const int nb = k + 1;
    std::vector<double> S(A.size());
    for (int i = 0; i < nb; ++i)
      for (int j = 0; j < nb; ++j)
        S[i * nb + j] = ((A[i * nb + j] + A[j * nb + i]) + (A[(k - i) * nb + k - j] + A[(k - j) * nb + k - i])) * 0.25;
    return S;
  }
};

// The 1D matrices of one level (cell size h = 1/cells).
struct Level1D {
  int k = 0;
  double h = 0;
  std::vector<double> cell_mass, cell_stiffness;   // (k+1)^2
  std::vector<double> patch_mass, patch_stiffness; // (2k+1)^2, two cells assembled
  std::vector<double> eigenvectors;                // (2k-1)^2: S with S^T M_I S = I (columns)
  std::vector<double> eigenvalues;                 // 2k-1: K_I S = M_I S Lambda

  Level1D(const Element1D &e, int cells) : k(e.k), h(1.0 / cells)
  {
    const int nb = k + 1, np = 2 * k + 1, ni = 2 * k - 1;
    cell_mass.resize(nb * nb);
    cell_stiffness.resize(nb * nb);
    for (int i = 0; i < nb * nb; ++i) {
      cell_mass[i]      = h * e.mass[i];
      cell_stiffness[i] = e.stiffness[i] / h;
    }
    patch_mass.assign(np * np, 0.0);
    patch_stiffness.assign(np * np, 0.0);
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < nb; ++i)
        for (int j = 0; j < nb; ++j) {
          patch_mass[(c * k + i) * np + c * k + j] += cell_mass[i * nb + j];
          patch_stiffness[(c * k + i) * np + c * k + j] += cell_stiffness[i * nb + j];
        }
    std::vector<double> MI(ni * ni), KI(ni * ni);
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < ni; ++j) {
        MI[i * ni + j] = patch_mass[(i + 1) * np + j + 1];
        KI[i * ni + j] = patch_stiffness[(i + 1) * np + j + 1];
      }
    generalized_eigen(KI, MI, ni, eigenvalues, eigenvectors);
  }

  // Rows 1..2k-1 (the patch interior) of a patch matrix: (2k-1) x (2k+1).
  std::vector<double> interior_rows(const std::vector<double> &patch_matrix) const
  {
    const int np = 2 * k + 1, ni = 2 * k - 1;
    return std::vector<double>(patch_matrix.begin() + np, patch_matrix.begin() + np + ni * np);
  }

  // Dense matrix of the patch problem on the (2k-1)^dim interior points
  // (lexicographic, x fastest): sum_d M x .. x K_d x .. x M.
  std::vector<double> dense_patch_matrix(int dim) const
  {
    const int np = 2 * k + 1, ni = 2 * k - 1;
    const int n = dim == 2 ? ni * ni : ni * ni * ni;
    auto m = [&](int i, int j) { return patch_mass[(i + 1) * np + j + 1]; };
    auto s = [&](int i, int j) { return patch_stiffness[(i + 1) * np + j + 1]; };
    std::vector<double> A(static_cast<size_t>(n) * n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const int r0 = r % ni, r1 = (r / ni) % ni, r2 = r / (ni * ni);
        const int c0 = c % ni, c1 = (c / ni) % ni, c2 = c / (ni * ni);
        double v;
        if (dim == 2) v = s(r0, c0) * m(r1, c1) + m(r0, c0) * s(r1, c1);
        else
          v = s(r0, c0) * m(r1, c1) * m(r2, c2) + m(r0, c0) * s(r1, c1) * m(r2, c2) + m(r0, c0) * m(r1, c1) * s(r2, c2);
        A[static_cast<size_t>(r) * n + c] = v;
      }
    return A;
  }
};

} // namespace vpatch
