// The 1D tables that operator, smoother and transfer kernels read, in the kernels' Number
// type, and the plain pointer views the kernels take (host or device memory alike).
#pragma once
#include "element1d.hpp"
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace vpatch {

enum class LocalSolver { FDM = 0, Dense = 1 };

// How a patch correction forms its residual.
enum class PatchResidual {
  Local, // r_j = b_j - Abar_j x_j from the patch closure (paper eq. 2.8)
  Given  // r_j = rhs_j: rhs already holds the global residual (Global variant, additive type)
};

template <typename Number>
struct OperatorView {
  const Number *mass;      // (k+1)^2 cell mass, row-major
  const Number *stiffness; // (k+1)^2 cell stiffness
};

template <typename Number>
struct PatchView {
  const Number *mass_rows;      // (2k-1) x (2k+1): patch mass, interior rows
  const Number *stiffness_rows; // (2k-1) x (2k+1): patch stiffness, interior rows
  const Number *eigenvectors;   // (2k-1)^2, S (eigenvectors in columns)
  const Number *eigenvectors_t; // (2k-1)^2, S^T
  const Number *eigenvalues;    // 2k-1
  const Number *dense_inverse;  // (2k-1)^(2 dim), used with LocalSolver::Dense
  // Device views: mass_rows, stiffness_rows, eigenvectors, eigenvectors_t in host memory
  // (the CUDA smoother may pass them as launch constants), or nullptr.
  const Number *host_rows_and_eigenvectors[4] = {nullptr, nullptr, nullptr, nullptr};
};

template <typename Number>
struct TransferView {
  const Number *prolongation;   // (2k+1) x (k+1)
  const Number *restriction;    // (k+1) x (2k+1), its transpose
};

// The inverse of the dense patch matrix (sum_d M x .. x K_d x .. x M on the (2k-1)^dim patch
// interior) of cell size h = 1. On a level of cell size h the patch matrix is h^(dim-2) times
// this one (exactly where h is a power of two, else to rounding), so the levels of a hierarchy
// share one inversion (O(n^3), n = (2k-1)^dim: 3D Q8 13 s on one core) while any of them holds it.
inline std::shared_ptr<const std::vector<double>> unit_dense_patch_inverse(int dim, const Element1D &e)
{
  static std::mutex m;
  static std::map<std::pair<int, int>, std::weak_ptr<const std::vector<double>>> cache;
  const std::pair<int, int> key{dim, e.k};
  {
    const std::lock_guard<std::mutex> lock(m);
    if (auto held = cache[key].lock()) return held;
  }
  const Level1D unit(e, 1); // inverted outside the lock (seconds for 3D Q8)
  const int ni = 2 * e.k - 1, n = dim == 2 ? ni * ni : ni * ni * ni;
  auto inv = std::make_shared<const std::vector<double>>(spd_inverse(unit.dense_patch_matrix(dim), n));
  const std::lock_guard<std::mutex> lock(m);
  if (auto held = cache[key].lock()) return held; // another thread's, equal
  cache[key] = inv;
  return inv;
}

// Host copies of all tables of one level, in Number.
template <typename Number>
struct LevelTables {
  std::vector<Number> mass, stiffness, mass_rows, stiffness_rows, eigenvectors, eigenvectors_t, eigenvalues, dense_inverse,
    prolongation, restriction;
  std::shared_ptr<const std::vector<double>> unit_dense; // (with_dense) shared with the other levels

  LevelTables(int dim, const Element1D &e, const Level1D &l, bool with_dense)
  {
    auto cast = [](const std::vector<double> &v) { return std::vector<Number>(v.begin(), v.end()); };
    const int k = e.k, ni = 2 * k - 1, nb = k + 1, np = 2 * k + 1;
    mass           = cast(l.cell_mass);
    stiffness      = cast(l.cell_stiffness);
    mass_rows      = cast(l.interior_rows(l.patch_mass));
    stiffness_rows = cast(l.interior_rows(l.patch_stiffness));
    eigenvectors   = cast(l.eigenvectors);
    eigenvectors_t.resize(ni * ni);
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < ni; ++j) eigenvectors_t[i * ni + j] = static_cast<Number>(l.eigenvectors[j * ni + i]);
    eigenvalues = cast(l.eigenvalues);
    if (with_dense) {
      unit_dense = unit_dense_patch_inverse(dim, e);
      const double scale = std::pow(l.h, 2 - dim);
      dense_inverse.resize(unit_dense->size());
      for (size_t i = 0; i < dense_inverse.size(); ++i) dense_inverse[i] = static_cast<Number>(scale * (*unit_dense)[i]);
    }
    prolongation = cast(e.prolongation);
    restriction.resize(nb * np);
    for (int i = 0; i < np; ++i)
      for (int j = 0; j < nb; ++j) restriction[j * np + i] = static_cast<Number>(e.prolongation[i * nb + j]);
  }
  OperatorView<Number> operator_view() const { return {mass.data(), stiffness.data()}; }
  PatchView<Number> patch_view() const
  {
    return {mass_rows.data(), stiffness_rows.data(), eigenvectors.data(), eigenvectors_t.data(), eigenvalues.data(),
            dense_inverse.empty() ? nullptr : dense_inverse.data()};
  }
  // A view of device copies of these tables (same order as patch_view()), with the host
  // copies attached.
  PatchView<Number> device_patch_view(const Number *const (&device)[6]) const
  {
    PatchView<Number> v{device[0], device[1], device[2], device[3], device[4], device[5]};
    const Number *host[4] = {mass_rows.data(), stiffness_rows.data(), eigenvectors.data(), eigenvectors_t.data()};
    for (int i = 0; i < 4; ++i) v.host_rows_and_eigenvectors[i] = host[i];
    return v;
  }
  TransferView<Number> transfer_view() const { return {prolongation.data(), restriction.data()}; }
};

} // namespace vpatch
