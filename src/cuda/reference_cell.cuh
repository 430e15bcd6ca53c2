// The h = 1 cell mass and stiffness matrices of degree k (reference_tables.hpp,
// OperatorTables: k = 2..10) in Number, as device constants whose entries, indexed by
// compile-time constants, become immediates of the multiply-adds: as they are, and in
// even-odd form with the line type and the sums that apply them (the 3D cell operator's
// lines, the 2D cell columns' x sums).
#pragma once
#include "reference_tables.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

template <int k, typename Number>
struct ReferenceCell {
  Number M[(k + 1) * (k + 1)], K[(k + 1) * (k + 1)];
};
template <int k, typename Number>
constexpr ReferenceCell<k, Number> make_reference_cell()
{
  ReferenceCell<k, Number> t{};
  for (int i = 0; i < (k + 1) * (k + 1); ++i) {
    t.M[i] = Number(reference::OperatorTables<k>::mass[i]);
    t.K[i] = Number(reference::OperatorTables<k>::stiffness[i]);
  }
  return t;
}
template <int k, typename Number>
__device__ constexpr ReferenceCell<k, Number> reference_cell = make_reference_cell<k, Number>();

// The compiled-in cell matrices in even-odd form (deal.II's evaluate_evenodd): M and K are
// centro-symmetric, A[n-1-i][n-1-j] = A[i][j] bit for bit (core/element1d.hpp), so with
// e_j = x_j + x_{n-1-j} and o_j = x_j - x_{n-1-j} (j < h = n / 2) the outputs i and n-1-i
// (i < h) are ev_i + od_i and ev_i - od_i, ev_i = sum_j E[i][j] e_j (+ A[i][h] x_h for odd n),
// od_i = sum_j O[i][j] o_j, E, O = (A[i][j] +- A[i][n-1-j]) / 2; for odd n the middle output
// is ev_h = sum_j A[h][j] e_j + A[h][h] x_h. (h + n % 2)^2 + h^2 multiply-adds per line and
// matrix instead of n^2 (n = 8: 32 against 64), plus 2h sums and differences per input and
// per output tensor. Rounded once from the double tables.
template <int k, typename Number>
struct EvenOddMatrix {
  static constexpr int n = k + 1, h = n / 2, mid = n % 2;
  Number E[h + mid][h], O[h][h], C[h + mid]; // C: the middle column A[i][h], i <= h (odd n)
};
template <int k, typename Number>
constexpr EvenOddMatrix<k, Number> make_evenodd_matrix(const double *A)
{
  using T = EvenOddMatrix<k, Number>;
  constexpr int n = T::n, h = T::h;
  T t{};
  for (int i = 0; i < h + T::mid; ++i) {
    for (int j = 0; j < h; ++j) {
      t.E[i][j] = Number(0.5 * (A[i * n + j] + A[i * n + n - 1 - j]));
      if (i < h) t.O[i][j] = Number(0.5 * (A[i * n + j] - A[i * n + n - 1 - j]));
    }
    if (T::mid) t.C[i] = Number(A[i * n + h]);
  }
  return t;
}
template <int k, typename Number>
struct EvenOddCell {
  EvenOddMatrix<k, Number> M, K;
};
template <int k, typename Number>
__device__ constexpr EvenOddCell<k, Number> evenodd_cell = {make_evenodd_matrix<k, Number>(reference::OperatorTables<k>::mass),
                                                           make_evenodd_matrix<k, Number>(reference::OperatorTables<k>::stiffness)};

// A line split into its even and odd parts (and the middle value, odd n).
template <int k, typename Number>
struct EvenOddLine {
  static constexpr int n = k + 1, h = n / 2;
  Number e[h], o[h], m;
  __device__ __forceinline__ explicit EvenOddLine(const Number (&x)[n])
  {
#pragma unroll
    for (int j = 0; j < h; ++j) {
      e[j] = x[j] + x[n - 1 - j];
      o[j] = x[j] - x[n - 1 - j];
    }
    m = n % 2 ? x[h] : Number(0);
  }
};
// sum_t A_t x_t over the products added, in even-odd form.
template <int k, typename Number>
struct EvenOddSum {
  static constexpr int n = k + 1, h = n / 2, mid = n % 2;
  Number ev[h + mid] = {}, od[h] = {};
  __device__ __forceinline__ void add(const EvenOddMatrix<k, Number> &A, const EvenOddLine<k, Number> &x)
  {
#pragma unroll
    for (int i = 0; i < h + mid; ++i) {
#pragma unroll
      for (int j = 0; j < h; ++j) {
        ev[i] = fma(A.E[i][j], x.e[j], ev[i]);
        if (i < h) od[i] = fma(A.O[i][j], x.o[j], od[i]);
      }
      if constexpr (mid) ev[i] = fma(A.C[i], x.m, ev[i]);
    }
  }
  __device__ __forceinline__ Number operator[](int r) const
  {
    return r < h ? ev[r] + od[r] : (r >= n - h ? ev[n - 1 - r] - od[n - 1 - r] : ev[h]);
  }
};
} // namespace detail
} // namespace cuda
} // namespace vpatch
