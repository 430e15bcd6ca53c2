// Independent reference implementations for the multigrid tests (no code of src/ used):
// Gauss-Lobatto support points and Gauss quadrature by bisection on Legendre recurrences,
// Lagrange polynomials, 1D element matrices with an over-integrating quadrature, and a
// sparse global matrix of the Q_k Laplacian assembled from element matrices.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <petscsys.h>
#include <petscblaslapack.h>
#include <stdexcept>
#include <vector>

namespace mgref {

// P_n(t) and P_n'(t) by the three-term recurrence and P'_{j+1} = P'_{j-1} + (2j+1) P_j.
inline void legendre_and_derivative(int n, double t, double &p, double &dp)
{
  std::vector<double> P(n + 2, 0.0), D(n + 2, 0.0);
  P[0] = 1.0;
  D[0] = 0.0;
  if (n >= 1) {
    P[1] = t;
    D[1] = 1.0;
  }
  for (int j = 1; j < n; ++j) {
    P[j + 1] = ((2.0 * j + 1.0) * t * P[j] - j * P[j - 1]) / (j + 1.0);
    D[j + 1] = D[j - 1] + (2.0 * j + 1.0) * P[j];
  }
  p  = P[n];
  dp = D[n];
}

// All roots of f on (-1, 1) by sign changes on a fine grid and bisection (f has simple roots).
inline std::vector<double> roots(const std::function<double(double)> &f, int expected)
{
  std::vector<double> r;
  const int samples = 20000;
  double a = -1.0 + 1e-12, fa = f(a);
  for (int s = 1; s <= samples; ++s) {
    double b = -1.0 + 2.0 * s / samples - (s == samples ? 1e-12 : 0.0), fb = f(b);
    if (fa == 0.0) r.push_back(a);
    else if (fa * fb < 0) {
      double lo = a, hi = b, flo = fa;
      for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi), fm = f(mid);
        if (fm == 0.0) { lo = hi = mid; break; }
        if (flo * fm < 0) hi = mid;
        else { lo = mid; flo = fm; }
      }
      r.push_back(0.5 * (lo + hi));
    }
    a = b;
    fa = fb;
  }
  if ((int)r.size() != expected) throw std::runtime_error("mgref::roots: wrong number of roots");
  return r;
}

// k+1 Gauss-Lobatto points on [0,1].
inline std::vector<double> gll_points(int k)
{
  std::vector<double> x{0.0};
  if (k >= 2) {
    auto r = roots([k](double t) { double p, dp; legendre_and_derivative(k, t, p, dp); return dp; }, k - 1);
    for (double t : r) x.push_back(0.5 * (1.0 + t));
  }
  x.push_back(1.0);
  return x;
}

// n-point Gauss-Legendre rule on [0,1].
inline void gauss(int n, std::vector<double> &x, std::vector<double> &w)
{
  auto r = roots([n](double t) { double p, dp; legendre_and_derivative(n, t, p, dp); return p; }, n);
  x.clear();
  w.clear();
  for (double t : r) {
    double p, dp;
    legendre_and_derivative(n, t, p, dp);
    x.push_back(0.5 * (1.0 + t));
    w.push_back(1.0 / ((1.0 - t * t) * dp * dp));
  }
}

inline double lagrange(const std::vector<double> &nodes, int i, double x)
{
  double v = 1.0;
  for (size_t j = 0; j < nodes.size(); ++j)
    if ((int)j != i) v *= (x - nodes[j]) / (nodes[i] - nodes[j]);
  return v;
}

inline double lagrange_derivative(const std::vector<double> &nodes, int i, double x)
{
  // d/dx prod_{j != i} (x - x_j)/(x_i - x_j) = sum_m prod_{j != i, m} (x - x_j) / prod_{j != i} (x_i - x_j)
  double denom = 1.0;
  for (size_t j = 0; j < nodes.size(); ++j)
    if ((int)j != i) denom *= nodes[i] - nodes[j];
  double s = 0.0;
  for (size_t m = 0; m < nodes.size(); ++m) {
    if ((int)m == i) continue;
    double v = 1.0;
    for (size_t j = 0; j < nodes.size(); ++j)
      if ((int)j != i && j != m) v *= x - nodes[j];
    s += v;
  }
  return s / denom;
}

// 1D cell mass and stiffness on [0,1] by a (k+3)-point Gauss rule (exact: degree <= 2k).
struct Element {
  int k;
  std::vector<double> nodes, M, K; // (k+1)^2 row-major
  explicit Element(int degree) : k(degree)
  {
    nodes = gll_points(k);
    std::vector<double> qx, qw;
    gauss(k + 3, qx, qw);
    const int nb = k + 1;
    M.assign(nb * nb, 0.0);
    K.assign(nb * nb, 0.0);
    for (size_t q = 0; q < qx.size(); ++q)
      for (int i = 0; i < nb; ++i)
        for (int j = 0; j < nb; ++j) {
          M[i * nb + j] += qw[q] * lagrange(nodes, i, qx[q]) * lagrange(nodes, j, qx[q]);
          K[i * nb + j] += qw[q] * lagrange_derivative(nodes, i, qx[q]) * lagrange_derivative(nodes, j, qx[q]);
        }
  }
};

// Two-cell (vertex patch) 1D matrices, (2k+1)^2, cell size h.
inline void patch_1d(const Element &e, double h, std::vector<double> &M, std::vector<double> &K)
{
  const int k = e.k, nb = k + 1, np = 2 * k + 1;
  M.assign(np * np, 0.0);
  K.assign(np * np, 0.0);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < nb; ++i)
      for (int j = 0; j < nb; ++j) {
        M[(c * k + i) * np + c * k + j] += h * e.M[i * nb + j];
        K[(c * k + i) * np + c * k + j] += e.K[i * nb + j] / h;
      }
}

// Kronecker-sum matrix sum_d M x .. x K_d x .. x M on an m^dim tensor (x fastest), from
// m x m 1D matrices given as accessors.
inline std::vector<double> kron_sum_matrix(int dim, int m, const std::function<double(int, int)> &Mf,
                                           const std::function<double(int, int)> &Kf)
{
  const int n = dim == 2 ? m * m : m * m * m;
  std::vector<double> A((size_t)n * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const int r_[3] = {r % m, (r / m) % m, dim == 3 ? r / (m * m) : 0};
      const int c_[3] = {c % m, (c / m) % m, dim == 3 ? c / (m * m) : 0};
      double s = 0;
      for (int d = 0; d < dim; ++d) {
        double p = 1;
        for (int e = 0; e < dim; ++e) p *= (e == d ? Kf(r_[e], c_[e]) : Mf(r_[e], c_[e]));
        s += p;
      }
      A[(size_t)r * n + c] = s;
    }
  return A;
}

// Sparse matrix, rows as sorted (col, value) maps.
struct Sparse {
  int n = 0;
  std::vector<std::map<int, double>> rows;
  void mult(const std::vector<double> &x, std::vector<double> &y) const
  {
    y.assign(n, 0.0);
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (auto &kv : rows[i]) s += kv.second * x[kv.first];
      y[i] = s;
    }
  }
};

// The global Q_k Laplacian on [0,1]^dim with N cells per direction, lexicographic numbering
// (x fastest) of the (Nk+1)^dim support points, Dirichlet rows and columns replaced by the
// identity: exactly the operator the plugin's MATSHELL represents.
struct Mesh {
  int dim, k, N, n1, n;
  Mesh(int d, int deg, int cells) : dim(d), k(deg), N(cells), n1(cells * deg + 1), n(d == 2 ? n1 * n1 : n1 * n1 * n1) {}
  int index(int i, int j, int l) const { return (l * n1 + j) * n1 + i; }
  void coords(int idx, int c[3]) const
  {
    c[0] = idx % n1;
    c[1] = (idx / n1) % n1;
    c[2] = dim == 3 ? idx / (n1 * n1) : 0;
  }
  bool boundary(int idx) const
  {
    int c[3];
    coords(idx, c);
    for (int d = 0; d < dim; ++d)
      if (c[d] == 0 || c[d] == n1 - 1) return true;
    return false;
  }
};

inline Sparse assemble_global(const Mesh &mesh, const Element &e)
{
  const int k = e.k, nb = k + 1, dim = mesh.dim;
  const double h = 1.0 / mesh.N;
  auto Mf = [&](int i, int j) { return h * e.M[i * nb + j]; };
  auto Kf = [&](int i, int j) { return e.K[i * nb + j] / h; };
  const std::vector<double> AK = kron_sum_matrix(dim, nb, Mf, Kf);
  const int ne = dim == 2 ? nb * nb : nb * nb * nb;
  Sparse A;
  A.n = mesh.n;
  A.rows.resize(mesh.n);
  std::vector<int> dofs(ne);
  for (int cz = 0; cz < (dim == 3 ? mesh.N : 1); ++cz)
    for (int cy = 0; cy < mesh.N; ++cy)
      for (int cx = 0; cx < mesh.N; ++cx) {
        for (int q = 0; q < ne; ++q) {
          const int a = q % nb, b = (q / nb) % nb, c = dim == 3 ? q / (nb * nb) : 0;
          dofs[q] = mesh.index(cx * k + a, cy * k + b, dim == 3 ? cz * k + c : 0);
        }
        for (int r = 0; r < ne; ++r)
          for (int c = 0; c < ne; ++c) A.rows[dofs[r]][dofs[c]] += AK[(size_t)r * ne + c];
      }
  for (int i = 0; i < mesh.n; ++i) {
    if (mesh.boundary(i)) {
      A.rows[i].clear();
      A.rows[i][i] = 1.0;
      continue;
    }
    for (auto it = A.rows[i].begin(); it != A.rows[i].end();) {
      if (mesh.boundary(it->first)) it = A.rows[i].erase(it);
      else ++it;
    }
  }
  return A;
}

// Dense LU factorization with LAPACK (getrf) and solves (getrs), column-major inside.
struct DenseLU {
  PetscBLASInt n = 0;
  std::vector<double> lu;
  std::vector<PetscBLASInt> piv;
  void factor(const std::vector<double> &A_rowmajor, int size)
  {
    n = size;
    lu.resize((size_t)n * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) lu[(size_t)j * n + i] = A_rowmajor[(size_t)i * n + j];
    piv.resize(n);
    PetscBLASInt info = 0;
    LAPACKgetrf_(&n, &n, lu.data(), &n, piv.data(), &info);
    if (info) throw std::runtime_error("getrf failed");
  }
  void solve(std::vector<double> &b) const
  {
    PetscBLASInt one = 1, info = 0;
    LAPACKgetrs_("N", &n, &one, lu.data(), &n, piv.data(), b.data(), &n, &info);
    if (info) throw std::runtime_error("getrs failed");
  }
};

// Deterministic pseudo-random numbers in [-1, 1] from an integer key.
inline double hash_random(unsigned long long key, unsigned long long seed)
{
  unsigned long long z = key * 0x9E3779B97F4A7C15ULL + seed * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z = z ^ (z >> 31);
  return 2.0 * ((z >> 11) * (1.0 / 9007199254740992.0)) - 1.0;
}

inline double max_abs(const std::vector<double> &v)
{
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// max |a - b| / max |b| (infinite where a and b differ in a non-finite entry: std::max drops NaNs)
inline double rel_diff(const std::vector<double> &a, const std::vector<double> &b)
{
  double d = 0, m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i] - b[i]) && !(a[i] == b[i])) return INFINITY;
    d = std::max(d, std::abs(a[i] - b[i]));
    m = std::max(m, std::abs(b[i]));
  }
  return m > 0 ? d / m : d;
}

} // namespace mgref
