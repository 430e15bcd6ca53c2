// kernels.boundary_lift: the lift of Dirichlet values (src/core/boundary_lift.hpp) that full
// multigrid subtracts. Against functions it must reproduce: the transfinite interpolant is
// exact for a function linear along any one direction (u = P_d u makes every term of
// (I - P_x)(I - P_y)(I - P_z) u vanish), at every support point of Q_k meshes in 2D and 3D;
// boundary points keep their own values for any function; faces packed from sub-boxes (as
// ranks do, then summed) equal the faces of the whole box.
#include "core/boundary_lift.hpp"
#include "core/element1d.hpp"
#include "core/problem.hpp"
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

using namespace vpatch;
using Function = std::function<double(const double *)>;

static long checks = 0, failures = 0;

static void check(bool ok, const char *what, int dim, int k, int cells, double value)
{
  ++checks;
  if (!ok && ++failures <= 20) std::printf("FAIL %s: dim %d Q%d on %d cells: %.3e\n", what, dim, k, cells, value);
}

static Box whole_box(int dim, int k, int cells)
{
  const int n = cells * k + 1, zero[3] = {0, 0, 0}, m[3] = {n, n, dim == 3 ? n : 1};
  return make_box(dim, k, cells, zero, m, zero, m);
}

// the owned sub-box [lo, hi) along direction d of the whole box
static Box sub_box(const Box &whole, int d, int lo, int hi)
{
  Box b = whole;
  b.os[d] = b.gs[d] = lo;
  b.om[d] = b.gm[d] = hi - lo;
  return b;
}

static std::vector<double> values(const Box &box, const Element1D &e, const Function &u)
{
  std::vector<double> v((size_t)box.owned_points());
  for (int l = box.os[2]; l < box.os[2] + box.om[2]; ++l)
    for (int j = box.os[1]; j < box.os[1] + box.om[1]; ++j)
      for (int i = box.os[0]; i < box.os[0] + box.om[0]; ++i) {
        double x[3];
        support_point(box, e, i, j, l, x);
        v[box.owned_index(i, j, l)] = u(x);
      }
  return v;
}

static void run(int dim, int k, int cells)
{
  const Element1D e(k);
  const Box box = whole_box(dim, k, cells);
  const BoundaryFaces F{dim, box.n};
  LiftGeometry geo{cells, k, {}};
  for (int a = 0; a <= k; ++a) geo.support[a] = e.support[a];
  std::vector<Function> linear = { // (x[2] = 0 in 2D)
    [](const double *x) { return (1 + 2 * x[0]) * std::exp(x[1]) * std::cos(x[2]); },
    [](const double *x) { return std::sin(3 * x[0]) * (0.5 - x[1]) * std::exp(-x[2]); },
  };
  if (dim == 3) linear.push_back([](const double *x) { return std::sin(3 * x[0]) * std::cos(2 * x[1]) * (2 + x[2]); });
  const Function curved = [](const double *x) { return std::exp(x[0] * x[0] + 2 * x[1] * x[1] + x[2] * x[2] / 2); };
  for (int f = 0; f < (int)linear.size() + 1; ++f) {
    const Function &u = f < (int)linear.size() ? linear[f] : curved;
    const std::vector<double> exact = values(box, e, u);
    std::vector<double> faces((size_t)F.size(), 0.0), lift(exact.size(), 0.0);
    cpu::pack_boundary_faces(box, F, exact.data(), faces.data());
    cpu::boundary_lift(box, F, geo, faces.data(), lift.data());
    double err_interior = 0, err_boundary = 0;
    for (int l = 0; l < box.om[2]; ++l)
      for (int j = 0; j < box.n; ++j)
        for (int i = 0; i < box.n; ++i) {
          const long o = box.owned_index(i, j, l);
          double &err = box.on_boundary(i, j, l) ? err_boundary : err_interior;
          err = std::fmax(err, std::fabs(lift[o] - exact[o]));
        }
    check(err_boundary == 0, "boundary points keep their values", dim, k, cells, err_boundary);
    if (f < (int)linear.size()) check(err_interior <= 1e-13, "a function linear along one direction is reproduced", dim, k, cells, err_interior);
    else if (box.n > 2) check(err_interior > 1e-6, "a curved function is not (the check can fail)", dim, k, cells, err_interior);
    // ranks: each packs its owned points into zeroed faces, the faces are summed
    for (int d = 0; d < dim; ++d) {
      const int cut = box.n / 2;
      std::vector<double> summed((size_t)F.size(), 0.0);
      for (const Box &part : {sub_box(box, d, 0, cut), sub_box(box, d, cut, box.n)}) {
        std::vector<double> mine((size_t)F.size(), 0.0);
        cpu::pack_boundary_faces(part, F, values(part, e, u).data(), mine.data());
        for (size_t q = 0; q < mine.size(); ++q) summed[q] += mine[q];
      }
      double diff = 0;
      for (size_t q = 0; q < summed.size(); ++q) diff = std::fmax(diff, std::fabs(summed[q] - faces[q]));
      check(diff == 0, "sub-boxes' faces summed equal the whole box's", dim, k, cells, diff);
    }
  }
}

int main()
{
  for (int dim = 2; dim <= 3; ++dim)
    for (int k = 1; k <= (dim == 2 ? 10 : 8); ++k)
      for (int cells : {1, 2, 5}) run(dim, k, cells);
  std::printf("%ld checks, %ld failed\n", checks, failures);
  return failures ? 1 : 0;
}
