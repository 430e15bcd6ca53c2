// The 1D transfer matrices of degree k, the same on every level, compiled in
// (reference_tables.hpp): P ((2k+1) x (k+1)) and R = P^T, in Number.
#pragma once
#include "reference_tables.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

template <int k, typename Number>
struct ReferenceTransfer {
  Number P[(2 * k + 1) * (k + 1)], R[(k + 1) * (2 * k + 1)];
};
template <int k, typename Number>
constexpr ReferenceTransfer<k, Number> make_reference_transfer()
{
  constexpr int nb = k + 1, np = 2 * k + 1;
  ReferenceTransfer<k, Number> t{};
  for (int i = 0; i < np; ++i)
    for (int j = 0; j < nb; ++j) {
      t.P[i * nb + j] = Number(reference::TransferTables<k>::prolongation[i * nb + j]);
      t.R[j * np + i] = t.P[i * nb + j];
    }
  return t;
}
template <int k, typename Number>
__device__ constexpr ReferenceTransfer<k, Number> reference_transfer = make_reference_transfer<k, Number>();

} // namespace detail
} // namespace cuda
} // namespace vpatch
