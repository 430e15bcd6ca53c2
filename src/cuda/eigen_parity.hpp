// Parities of the fast diagonalization's eigenvectors (host and device usable, no CUDA
// headers): the 1D patch matrices are symmetric under the reflection i -> m - 1 - i, so each
// eigenvector is even or odd under it, the basis of the even-odd local solves (common.cuh,
// contract_evenodd). Checked against the CPU's level tables by kernels.reference_tables.
#pragma once
#include "reference_tables.hpp"
#include <cmath>

namespace vpatch {
namespace cuda {

// Bit j: column j of the reference eigenvectors S is odd under the patch's reflection
// (S[m-1-i][j] = -S[i][j]), else even (common.cuh, contract_evenodd); a level's S is the
// reference one times a scalar, with the same parities (a double level's S, passed at launch,
// is checked by has_eigenvector_parities). 0 outside the tables' degrees.
template <int k>
constexpr unsigned eigenvector_odd_columns()
{
  if constexpr (k >= reference::degree_min && k <= reference::degree_max) {
    using R = reference::PatchTables<k>;
    constexpr int m = 2 * k - 1;
    unsigned odd = 0;
    for (int j = 0; j < m; ++j)
      if (R::eigenvectors[j] * R::eigenvectors[(m - 1) * m + j] < 0) odd |= 1u << j;
    return odd;
  } else return 0;
}
// Whether S (m x m, row-major, S[i][j] = component i of eigenvector j) has the parities `odd`
// to a relative tolerance.
template <typename Number>
bool has_eigenvector_parities(const Number *S, int m, unsigned odd, double tol)
{
  double big = 0;
  for (int i = 0; i < m * m; ++i) big = std::fmax(big, std::fabs((double)S[i]));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double sign = (odd >> j) & 1u ? -1 : 1;
      if (!(std::fabs((double)S[(m - 1 - i) * m + j] - sign * (double)S[i * m + j]) <= tol * big)) return false;
    }
  return true;
}

} // namespace cuda
} // namespace vpatch
