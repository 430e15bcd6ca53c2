// The reference tables compiled into CUDA kernels (src/cuda/reference_tables.hpp: the patch
// tables of the 3D smoother, k = 2..8 (float, and double from k = 4), the 1D prolongation of
// the 3D transfers, the cell matrices of the 3D operator) against the
// host computation they were generated from, and the scaling law the smoother relies on to
// use its tables on every level:
//   Level1D(e, 1) (h = 1) reproduces the header's patch tables (mass and stiffness rows,
//   eigenvectors, eigenvalues), Element1D(k) its prolongation and cell matrices (a level's:
//   h M^, K^ / h);
//   on a level of cell size h the patch rows are h M^ and K^ / h, the eigenvalues
//   lambda^ / h^2 and each eigenvector column S^ / sqrt(h) up to its sign.
// A stale or hand-edited header fails the first check; a change of the discretization that
// breaks the scaling (a non-uniform level) fails the second.
//   test_reference_tables --write FILE   regenerates the header.
#include "core/element1d.hpp"
#include "cuda/eigen_parity.hpp"
#include "cuda/reference_tables.hpp"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace vpatch;

namespace {

constexpr int kmin = 2, kmax = 8; // the degrees with launch-constant matrices (tuning.hpp, launch_matrices)
constexpr int tmin = 2, tmax = 10; // the 3D degrees of the cell transfer kernels (k >= 2)
constexpr int omin = 2, omax = 10; // the degrees of the kernels with compiled-in cell matrices (3D cell operator k >= 4, cell columns 2D k >= 4, 3D k >= 2)

int failures = 0;

double max_abs(const std::vector<double> &v)
{
  double m = 0;
  for (double x : v) m = std::fmax(m, std::fabs(x));
  return m;
}

// |got - scale * want| <= tol max|got| entrywise; column_signs: each of the n columns of a
// row-major n x n matrix may flip its sign.
void compare(const char *what, int k, int cells, const std::vector<double> &got, const double *want, double scale, double tol,
             int n = 0)
{
  const double bound = tol * max_abs(got);
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double w = scale * want[i];
    if (n > 0) {
      const int c = (int)(i % n); // column: compare with the sign of its largest entry
      int imax = c;
      for (int r = 0; r < n; ++r)
        if (std::fabs(want[r * n + c]) > std::fabs(want[imax])) imax = r * n + c;
      if ((got[imax] < 0) != (want[imax] < 0)) w = -w;
    }
    worst = std::fmax(worst, std::fabs(got[i] - w));
  }
  if (!(worst <= bound)) {
    std::printf("FAIL: k = %d, %d cells (0: any level), %s: max deviation %.3e > %.3e\n", k, cells, what, worst, bound);
    ++failures;
  }
}

template <int k>
void check_transfer()
{
  const Element1D e(k);
  compare("prolongation", k, 0, e.prolongation, cuda::reference::TransferTables<k>::prolongation, 1.0, 1e-13);
}

template <int k>
void check_operator()
{
  const Element1D e(k);
  for (int cells : {1, 5}) { // a level's cell matrices: h M^, K^ / h
    const Level1D l(e, cells);
    compare("cell mass", k, cells, l.cell_mass, cuda::reference::OperatorTables<k>::mass, 1.0 / cells, 1e-13);
    compare("cell stiffness", k, cells, l.cell_stiffness, cuda::reference::OperatorTables<k>::stiffness, cells, 1e-13);
  }
}

template <int k>
void check_degree()
{
  using R = cuda::reference::PatchTables<k>;
  const Element1D e(k);
  for (int cells : {1, 3, 64}) {
    const Level1D l(e, cells);
    const double h = 1.0 / cells, tol = 1e-13;
    compare("mass rows", k, cells, l.interior_rows(l.patch_mass), R::mass_rows, h, tol);
    compare("stiffness rows", k, cells, l.interior_rows(l.patch_stiffness), R::stiffness_rows, 1 / h, tol);
    compare("eigenvalues", k, cells, l.eigenvalues, R::eigenvalues, 1 / (h * h), tol);
    compare("eigenvectors", k, cells, l.eigenvectors, R::eigenvectors, 1 / std::sqrt(h), tol, 2 * k - 1);
    // the even-odd local solves: every eigenvector of the level is even or odd under the
    // patch's reflection, with the parities the kernels compile in from the reference tables
    if (!cuda::has_eigenvector_parities(l.eigenvectors.data(), 2 * k - 1, cuda::eigenvector_odd_columns<k>(), 1e-12)) {
      std::printf("FAIL k=%d cells=%d: the level's eigenvectors lack the reference parities\n", k, cells);
      ++failures;
    }
  }
  // h + 1 of the m = 2h + 1 eigenvectors are even (the dimension of the even vectors), and the
  // reference tables themselves are even or odd to rounding
  int odd = 0;
  for (unsigned bits = cuda::eigenvector_odd_columns<k>(); bits; bits >>= 1) odd += bits & 1u;
  if (odd != k - 1 || !cuda::has_eigenvector_parities(R::eigenvectors, 2 * k - 1, cuda::eigenvector_odd_columns<k>(), 1e-13)) {
    std::printf("FAIL k=%d: reference eigenvector parities (%d odd of %d)\n", k, odd, 2 * k - 1);
    ++failures;
  }
}

void write_array(FILE *f, const char *name, const std::vector<double> &v)
{
  std::fprintf(f, "  static constexpr double %s[%zu] = {", name, v.size());
  for (size_t i = 0; i < v.size(); ++i) std::fprintf(f, "%s%.17g", i ? ", " : "", v[i]);
  std::fprintf(f, "};\n");
}

int write_header(const char *path)
{
  FILE *f = std::fopen(path, "w");
  if (!f) {
    std::printf("cannot write %s\n", path);
    return 1;
  }
  std::fprintf(f, "// Generated by tests/kernels/test_reference_tables --write (do not edit; the ctest\n"
                  "// kernels.reference_tables checks it against core/element1d.hpp).\n"
                  "// The 1D patch tables of Level1D at h = 1 (one cell per unit length): interior rows of\n"
                  "// the patch mass and stiffness matrices ((2k-1) x (2k+1), row-major), the eigenvectors S\n"
                  "// (columns, S^T M_I S = I, row-major (2k-1)^2) and eigenvalues of K_I S = M_I S Lambda.\n"
                  "// A level of cell size h has h M^, K^ / h, S^ / sqrt(h) and lambda^ / h^2.\n"
                  "#pragma once\n\nnamespace vpatch {\nnamespace cuda {\nnamespace reference {\n\n"
                  "constexpr int degree_min = %d, degree_max = %d;\n\ntemplate <int k>\nstruct PatchTables;\n",
               kmin, kmax);
  for (int k = kmin; k <= kmax; ++k) {
    const Element1D e(k);
    const Level1D l(e, 1);
    std::fprintf(f, "\ntemplate <>\nstruct PatchTables<%d> {\n", k);
    write_array(f, "mass_rows", l.interior_rows(l.patch_mass));
    write_array(f, "stiffness_rows", l.interior_rows(l.patch_stiffness));
    write_array(f, "eigenvectors", l.eigenvectors);
    write_array(f, "eigenvalues", l.eigenvalues);
    std::fprintf(f, "};\n");
  }
  std::fprintf(f, "\n// The (2k+1) x (k+1) interpolation from a coarse cell to its two fine cells (Element1D::prolongation),\n"
                  "// the same on every level.\nconstexpr int transfer_degree_min = %d, transfer_degree_max = %d;\n\n"
                  "template <int k>\nstruct TransferTables;\n", tmin, tmax);
  for (int k = tmin; k <= tmax; ++k) {
    std::fprintf(f, "\ntemplate <>\nstruct TransferTables<%d> {\n", k);
    write_array(f, "prolongation", Element1D(k).prolongation);
    std::fprintf(f, "};\n");
  }
  std::fprintf(f, "\n// The cell mass and stiffness matrices ((k+1)^2, Element1D::mass, stiffness) at h = 1; a level of\n"
                  "// cell size h has h M^ and K^ / h.\nconstexpr int operator_degree_min = %d, operator_degree_max = %d;\n\n"
                  "template <int k>\nstruct OperatorTables;\n", omin, omax);
  for (int k = omin; k <= omax; ++k) {
    const Element1D e(k);
    std::fprintf(f, "\ntemplate <>\nstruct OperatorTables<%d> {\n", k);
    write_array(f, "mass", e.mass);
    write_array(f, "stiffness", e.stiffness);
    std::fprintf(f, "};\n");
  }
  std::fprintf(f, "\n} // namespace reference\n} // namespace cuda\n} // namespace vpatch\n");
  std::fclose(f);
  return 0;
}

} // namespace

int main(int argc, char **argv)
{
  if (argc == 3 && !std::strcmp(argv[1], "--write")) return write_header(argv[2]);
  static_assert(cuda::reference::degree_min == kmin && cuda::reference::degree_max == kmax, "regenerate the header (--write)");
  check_degree<2>();
  check_degree<3>();
  check_degree<4>();
  check_degree<5>();
  check_degree<6>();
  check_degree<7>();
  check_degree<8>();
  static_assert(cuda::reference::transfer_degree_min == tmin && cuda::reference::transfer_degree_max == tmax, "regenerate the header (--write)");
  check_transfer<2>();
  check_transfer<3>();
  check_transfer<4>();
  check_transfer<5>();
  check_transfer<6>();
  check_transfer<7>();
  check_transfer<8>();
  check_transfer<9>();
  check_transfer<10>();
  static_assert(cuda::reference::operator_degree_min == omin && cuda::reference::operator_degree_max == omax, "regenerate the header (--write)");
  check_operator<4>();
  check_operator<5>();
  check_operator<6>();
  check_operator<7>();
  check_operator<8>();
  check_operator<9>();
  check_operator<10>();
  std::printf("%s: reference patch tables, k = %d..%d; transfer tables, k = %d..%d; operator tables, k = %d..%d\n", failures ? "FAIL" : "OK",
              kmin, kmax, tmin, tmax, omin, omax);
  return failures ? 1 : 0;
}
