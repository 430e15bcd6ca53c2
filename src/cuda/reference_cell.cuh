// The h = 1 cell mass and stiffness matrices of degree k (reference_tables.hpp,
// OperatorTables: k = 4..10) in Number, as a device constant whose entries, indexed by
// compile-time constants, become immediates of the multiply-adds.
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

} // namespace detail
} // namespace cuda
} // namespace vpatch
