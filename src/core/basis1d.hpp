// One-dimensional building blocks of the Q_k discretization: Gauss-Lobatto support
// points, Gauss quadrature and Lagrange polynomials on the reference interval [0,1].
// Everything is computed in double; kernels cast to their Number type.
#pragma once
#include <cmath>
#include <stdexcept>
#include <vector>

namespace vpatch {

constexpr int kMaxDegree = 10;

// Legendre polynomial P_n and its derivative at t in [-1,1].
inline void legendre(int n, double t, double &p, double &dp)
{
  double p0 = 1.0, p1 = t;
  if (n == 0) { p = 1.0; dp = 0.0; return; }
  for (int j = 2; j <= n; ++j) {
    const double p2 = ((2.0 * j - 1.0) * t * p1 - (j - 1.0) * p0) / j;
    p0 = p1;
    p1 = p2;
  }
  p  = p1;
  dp = (std::abs(1.0 - t * t) < 1e-300) ? 0.0 : n * (p0 - t * p1) / (1.0 - t * t);
}

// n-point Gauss-Legendre rule on [0,1].
inline void gauss_rule(int n, std::vector<double> &x, std::vector<double> &w)
{
  x.assign(n, 0.0);
  w.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    double t = std::cos(M_PI * (i + 0.75) / (n + 0.5)), p, dp;
    for (int it = 0; it < 100; ++it) {
      legendre(n, t, p, dp);
      const double dt = p / dp;
      t -= dt;
      if (std::abs(dt) < 1e-16) break;
    }
    legendre(n, t, p, dp);
    x[n - 1 - i] = 0.5 * (1.0 + t);
    w[n - 1 - i] = 1.0 / ((1.0 - t * t) * dp * dp); // 2/((1-t^2)P'^2) scaled by 1/2
  }
}

// k+1 Gauss-Lobatto points on [0,1]: the endpoints and the roots of P_k'.
inline std::vector<double> gauss_lobatto_points(int k)
{
  if (k < 1) throw std::invalid_argument("gauss_lobatto_points: degree must be >= 1");
  std::vector<double> x(k + 1);
  x[0] = 0.0;
  x[k] = 1.0;
  for (int i = 1; i < k; ++i) {
    // Chebyshev-Gauss-Lobatto initial guess, Newton on (1-t^2) P_k'(t) = 0 via P_k'.
    double t = -std::cos(M_PI * i / k);
    for (int it = 0; it < 100; ++it) {
      double p, dp;
      legendre(k, t, p, dp);
      // d/dt P_k' = (2 t P_k' - k(k+1) P_k) / (1 - t^2)
      const double ddp = (2.0 * t * dp - k * (k + 1.0) * p) / (1.0 - t * t);
      const double dt  = dp / ddp;
      t -= dt;
      if (std::abs(dt) < 1e-16) break;
    }
    x[i] = 0.5 * (1.0 + t);
  }
  return x;
}

// Lagrange basis through the given nodes: values and derivatives at a point.
class LagrangeBasis {
public:
  explicit LagrangeBasis(std::vector<double> nodes) : nodes_(std::move(nodes)) {}
  int size() const { return static_cast<int>(nodes_.size()); }
  const std::vector<double> &nodes() const { return nodes_; }
  double value(int i, double x) const
  {
    double v = 1.0;
    for (int j = 0; j < size(); ++j)
      if (j != i) v *= (x - nodes_[j]) / (nodes_[i] - nodes_[j]);
    return v;
  }
  double derivative(int i, double x) const
  {
    double s = 0.0;
    for (int m = 0; m < size(); ++m) {
      if (m == i) continue;
      double v = 1.0 / (nodes_[i] - nodes_[m]);
      for (int j = 0; j < size(); ++j)
        if (j != i && j != m) v *= (x - nodes_[j]) / (nodes_[i] - nodes_[j]);
      s += v;
    }
    return s;
  }

private:
  std::vector<double> nodes_;
};

} // namespace vpatch
