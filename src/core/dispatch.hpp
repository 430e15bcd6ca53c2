// Runtime (dim, degree) to compile-time template arguments.
#pragma once
#include "basis1d.hpp"
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace vpatch {

template <int v>
using int_c = std::integral_constant<int, v>;

// Calls f(int_c<dim>{}, int_c<degree>{}) for 2 <= dim <= 3, 1 <= degree <= kMaxDegree.
template <typename F>
decltype(auto) dispatch(int dim, int degree, F &&f)
{
  auto by_degree = [&](auto d) -> decltype(auto) {
    switch (degree) {
    case 1: return f(d, int_c<1>{});
    case 2: return f(d, int_c<2>{});
    case 3: return f(d, int_c<3>{});
    case 4: return f(d, int_c<4>{});
    case 5: return f(d, int_c<5>{});
    case 6: return f(d, int_c<6>{});
    case 7: return f(d, int_c<7>{});
    case 8: return f(d, int_c<8>{});
    case 9: return f(d, int_c<9>{});
    case 10: return f(d, int_c<10>{});
    }
    throw std::invalid_argument("vpatch: degree out of range");
  };
  if (dim == 2) return by_degree(int_c<2>{});
  if (dim == 3) return by_degree(int_c<3>{});
  throw std::invalid_argument("vpatch: dimension out of range");
}

} // namespace vpatch
