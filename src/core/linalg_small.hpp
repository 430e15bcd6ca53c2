// Small dense linear algebra in double for setup: Cholesky, triangular solves, the
// symmetric Jacobi eigenvalue method and the generalized symmetric-definite eigenproblem
// K S = M S Lambda with S^T M S = I. Sizes are at most a few thousand (dense patch
// inverses in tests); everything is row-major std::vector<double>.
#pragma once
#include <cmath>
#include <stdexcept>
#include <vector>

namespace vpatch {

// In place: A = L L^T, L stored in the lower triangle (upper part zeroed). Right-looking:
// after column j of L, the trailing rows are updated with contiguous multiply-adds (a
// vectorizable axpy per row, where a dot product per entry would not vectorize).
inline void cholesky(std::vector<double> &A, int n)
{
  const size_t N = static_cast<size_t>(n);
  std::vector<double> col(N);
  for (size_t j = 0; j < N; ++j) {
    const double s = A[j * N + j];
    if (!(s > 0.0)) throw std::runtime_error("cholesky: matrix is not positive definite");
    const double ljj = std::sqrt(s), inv = 1.0 / ljj;
    A[j * N + j] = ljj;
    for (size_t i = j + 1; i < N; ++i) col[i] = A[i * N + j] *= inv;
    for (size_t i = j + 1; i < N; ++i) { // A_ik -= L_ij L_kj, j < k <= i
      const double lij = col[i];
      double *row = &A[i * N];
      for (size_t k = j + 1; k <= i; ++k) row[k] -= lij * col[k];
    }
  }
  for (size_t i = 0; i < N; ++i)
    for (size_t k = i + 1; k < N; ++k) A[i * N + k] = 0.0;
}

// Inverse of a symmetric positive definite matrix through its Cholesky factor: W = L^-1 by
// rows (forward substitution, each row a sum of the rows above it), then A^-1 = W^T W as a sum
// of rank-one updates by the rows of W: n^3 / 2 flops on contiguous rows (3D Q8, n = 3375:
// the dense patch inverse).
inline std::vector<double> spd_inverse(std::vector<double> A, int n)
{
  cholesky(A, n);
  const size_t N = static_cast<size_t>(n);
  std::vector<double> W(N * N, 0.0), inv(N * N, 0.0);
  for (size_t i = 0; i < N; ++i) { // row i of L^-1: (e_i - sum_{p<i} L_ip W_p) / L_ii
    double *wi = &W[i * N];
    wi[i] = 1.0;
    for (size_t p = 0; p < i; ++p) {
      const double l = A[i * N + p];
      const double *wp = &W[p * N];
      for (size_t j = 0; j <= p; ++j) wi[j] -= l * wp[j];
    }
    const double d = 1.0 / A[i * N + i];
    for (size_t j = 0; j <= i; ++j) wi[j] *= d;
  }
  for (size_t i = 0; i < N; ++i) { // inv += w_i^T w_i (w_i is zero beyond i)
    const double *wi = &W[i * N];
    for (size_t a = 0; a <= i; ++a) {
      const double wa = wi[a];
      double *row = &inv[a * N];
      for (size_t b = 0; b <= i; ++b) row[b] += wa * wi[b];
    }
  }
  return inv;
}

// Cyclic Jacobi: A = Q diag(lambda) Q^T for symmetric A (columns of Q are eigenvectors).
inline void symmetric_eigen(std::vector<double> A, int n, std::vector<double> &lambda, std::vector<double> &Q)
{
  Q.assign(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) Q[i * n + i] = 1.0;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0.0, diag = 0.0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) (i == j ? diag : off) += A[i * n + j] * A[i * n + j];
    if (off <= 1e-32 * diag) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        const double apq = A[p * n + q];
        if (std::abs(apq) < 1e-300) continue;
        const double theta = (A[q * n + q] - A[p * n + p]) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int r = 0; r < n; ++r) { // A <- A J (columns p, q)
          const double arp = A[r * n + p], arq = A[r * n + q];
          A[r * n + p] = c * arp - s * arq;
          A[r * n + q] = s * arp + c * arq;
        }
        for (int r = 0; r < n; ++r) { // A <- J^T A (rows p, q)
          const double apr = A[p * n + r], aqr = A[q * n + r];
          A[p * n + r] = c * apr - s * aqr;
          A[q * n + r] = s * apr + c * aqr;
        }
        for (int r = 0; r < n; ++r) {
          const double qrp = Q[r * n + p], qrq = Q[r * n + q];
          Q[r * n + p] = c * qrp - s * qrq;
          Q[r * n + q] = s * qrp + c * qrq;
        }
      }
  }
  lambda.resize(n);
  for (int i = 0; i < n; ++i) lambda[i] = A[i * n + i];
}

// K S = M S Lambda, S^T M S = I (K symmetric, M symmetric positive definite).
// S is row-major n x n with eigenvectors in its columns.
inline void generalized_eigen(const std::vector<double> &K, const std::vector<double> &M, int n, std::vector<double> &lambda,
                              std::vector<double> &S)
{
  std::vector<double> L = M;
  cholesky(L, n);
  // C = L^{-1} K L^{-T}
  std::vector<double> T(static_cast<size_t>(n) * n), C(static_cast<size_t>(n) * n);
  for (int c = 0; c < n; ++c)
    for (int i = 0; i < n; ++i) { // T = L^{-1} K, column c
      double s = K[i * n + c];
      for (int p = 0; p < i; ++p) s -= L[i * n + p] * T[p * n + c];
      T[i * n + c] = s / L[i * n + i];
    }
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < n; ++i) { // C^T = L^{-1} T^T, so C = T L^{-T}; row r of C
      double s = T[r * n + i];
      for (int p = 0; p < i; ++p) s -= L[i * n + p] * C[r * n + p];
      C[r * n + i] = s / L[i * n + i];
    }
  for (int i = 0; i < n; ++i) // symmetrize rounding
    for (int j = i + 1; j < n; ++j) C[i * n + j] = C[j * n + i] = 0.5 * (C[i * n + j] + C[j * n + i]);
  std::vector<double> Q;
  symmetric_eigen(C, n, lambda, Q);
  S.assign(static_cast<size_t>(n) * n, 0.0); // S = L^{-T} Q
  for (int c = 0; c < n; ++c)
    for (int i = n - 1; i >= 0; --i) {
      double s = Q[i * n + c];
      for (int p = i + 1; p < n; ++p) s -= L[p * n + i] * S[p * n + c];
      S[i * n + c] = s / L[i * n + i];
    }
}

} // namespace vpatch
