// Test 1: the fast-diagonalization inverse of the vertex-patch matrix equals the inverse of
// the assembled patch matrix (LAPACK), d = 2, 3, k = 1..8, to 1e-10 relative; the 1D patch
// matrices of Level1D and its dense_patch_matrix equal an independent assembly from
// two cells of element matrices computed with an over-integrating Gauss rule; the
// eigenpairs solve K S = M S Lambda with S^T M S = I; and the plugin's FDM kernel
// (cpu::patch_inverse) applied to unit vectors gives the same inverse.
// Usage: mg_fdm_inverse -dim d -kmin a -kmax b [-cells N]
#include "core/cpu/kernels_cpu.hpp"
#include "core/dispatch.hpp"
#include "core/element1d.hpp"
#include "core/level_tables.hpp"
#include "core/patch_band.hpp"
#include "mg_reference.hpp"
#include <petscsys.h>

using namespace mgref;

static int failures = 0;
static void check(bool ok, const char *what, int dim, int k, double value, double tol)
{
  std::printf("  %-52s dim=%d k=%d  %.3e (tol %.1e)  %s\n", what, dim, k, value, tol, ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

// y = (S x S [x S]) x with S (m x m, row-major) applied in every direction; transposed if t.
static void tensor_apply(int dim, int m, const std::vector<double> &S, bool t, const std::vector<double> &x, std::vector<double> &y)
{
  std::vector<double> a = x, b(x.size());
  const int n = (int)x.size();
  for (int d = 0; d < dim; ++d) {
    const int stride = d == 0 ? 1 : (d == 1 ? m : m * m);
    for (int idx = 0; idx < n; ++idx) {
      const int i = (idx / stride) % m, base = idx - i * stride;
      double s = 0;
      for (int j = 0; j < m; ++j) s += (t ? S[j * m + i] : S[i * m + j]) * a[base + j * stride];
      b[idx] = s;
    }
    std::swap(a, b);
  }
  y = a;
}

int main(int argc, char **argv)
{
  PetscInt dim = 2, kmin = 1, kmax = 8, cells = 4;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-kmin", &kmin, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-kmax", &kmax, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-cells", &cells, nullptr));
  const double h = 1.0 / cells;
  for (int k = (int)kmin; k <= (int)kmax; ++k) {
    const int np = 2 * k + 1, ni = 2 * k - 1, n = dim == 2 ? ni * ni : ni * ni * ni;
    vpatch::Element1D e(k);
    vpatch::Level1D L(e, (int)cells);
    Element ref(k);

    // Support points and cell matrices against the independent element.
    double dnodes = 0;
    for (int i = 0; i <= k; ++i) dnodes = std::max(dnodes, std::abs(ref.nodes[i] - e.support[i]));
    check(dnodes < 1e-13, "Gauss-Lobatto support points", (int)dim, k, dnodes, 1e-13);
    std::vector<double> PM, PK;
    patch_1d(ref, h, PM, PK);
    check(rel_diff(L.patch_mass, PM) < 1e-12, "1D patch mass vs two-cell assembly", (int)dim, k, rel_diff(L.patch_mass, PM), 1e-12);
    check(rel_diff(L.patch_stiffness, PK) < 1e-12, "1D patch stiffness vs two-cell assembly", (int)dim, k,
          rel_diff(L.patch_stiffness, PK), 1e-12);
    // The patch rows the kernels read (interior rows, in float and double) vanish exactly
    // outside the band that the CUDA contractions iterate over (core/patch_band.hpp).
    {
      vpatch::LevelTables<double> td((int)dim, e, L, false);
      vpatch::LevelTables<float> tf((int)dim, e, L, false);
      double outside = 0;
      int inside_zeros = 0;
      for (int r = 0; r < ni; ++r)
        for (int c = 0; c < np; ++c) {
          const bool in_band = r >= vpatch::band_rows_begin(k, c) && r < vpatch::band_rows_end(k, c);
          for (double v : {td.mass_rows[r * np + c], td.stiffness_rows[r * np + c], (double)tf.mass_rows[r * np + c],
                           (double)tf.stiffness_rows[r * np + c]}) {
            if (!in_band) outside = std::max(outside, std::abs(v));
            else if (v == 0 && c == r + 1) ++inside_zeros; // the diagonal is positive
          }
        }
      check(outside == 0 && inside_zeros == 0, "patch rows: exact zeros outside the cell band", (int)dim, k, outside, 0);
    }

    // Patch matrix on the (2k-1)^dim interior points from the two-cell 1D matrices.
    auto Mi = [&](int i, int j) { return PM[(i + 1) * np + j + 1]; };
    auto Ki = [&](int i, int j) { return PK[(i + 1) * np + j + 1]; };
    const std::vector<double> A = kron_sum_matrix((int)dim, ni, Mi, Ki);
    const std::vector<double> Aproj = L.dense_patch_matrix((int)dim);
    check(rel_diff(Aproj, A) < 1e-12, "dense_patch_matrix vs own assembly", (int)dim, k, rel_diff(Aproj, A), 1e-12);

    // Generalized eigenproblem K_I S = M_I S Lambda, S^T M_I S = I.
    const std::vector<double> &S = L.eigenvectors, &lam = L.eigenvalues;
    double eres = 0, escale = 0, orth = 0;
    for (int i = 0; i < ni; ++i)
      for (int q = 0; q < ni; ++q) {
        double ks = 0, ms = 0;
        for (int j = 0; j < ni; ++j) {
          ks += Ki(i, j) * S[j * ni + q];
          ms += Mi(i, j) * S[j * ni + q];
        }
        eres = std::max(eres, std::abs(ks - lam[q] * ms));
        escale = std::max(escale, std::abs(ks));
      }
    for (int p = 0; p < ni; ++p)
      for (int q = 0; q < ni; ++q) {
        double s = 0;
        for (int i = 0; i < ni; ++i)
          for (int j = 0; j < ni; ++j) s += S[i * ni + p] * Mi(i, j) * S[j * ni + q];
        orth = std::max(orth, std::abs(s - (p == q ? 1.0 : 0.0)));
      }
    check(eres / escale < 1e-12, "K S = M S Lambda", (int)dim, k, eres / escale, 1e-12);
    check(orth < 1e-12, "S^T M S = I", (int)dim, k, orth, 1e-12);

    // Independent inverse with LAPACK: getrf + getri (LU) for moderate sizes, potrf + potri
    // (Cholesky, half the work; the patch matrix is SPD) for the largest 3D patches.
    std::vector<double> Ainv = A;
    {
      PetscBLASInt nn = n, info = 0, lwork = -1;
      if (n <= 1400) {
        std::vector<PetscBLASInt> piv(n);
        LAPACKgetrf_(&nn, &nn, Ainv.data(), &nn, piv.data(), &info);
        PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "getrf failed: %d", (int)info);
        double wq;
        LAPACKgetri_(&nn, Ainv.data(), &nn, piv.data(), &wq, &lwork, &info);
        lwork = (PetscBLASInt)wq;
        std::vector<double> work(lwork);
        LAPACKgetri_(&nn, Ainv.data(), &nn, piv.data(), work.data(), &lwork, &info);
        PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "getri failed: %d", (int)info);
      } else {
        LAPACKpotrf_("L", &nn, Ainv.data(), &nn, &info);
        PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "potrf failed: %d", (int)info);
        LAPACKpotri_("L", &nn, Ainv.data(), &nn, &info);
        PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "potri failed: %d", (int)info);
        for (int j = 0; j < n; ++j) // column-major lower triangle -> full
          for (int i = 0; i < j; ++i) Ainv[(size_t)j * n + i] = Ainv[(size_t)i * n + j];
      }
      // Ainv holds the column-major inverse of A: transpose to row-major.
      std::vector<double> t((size_t)n * n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) t[(size_t)i * n + j] = Ainv[(size_t)j * n + i];
      Ainv.swap(t);
    }

    // Explicit FDM inverse (S x S)(sum Lambda)^{-1}(S x S)^T from the eigenpairs of Level1D,
    // one unit vector at a time; and the plugin's kernel on the same unit vectors.
    std::vector<double> F((size_t)n * n), Fk((size_t)n * n), ecol(n), t, col;
    vpatch::LevelTables<double> tables((int)dim, e, L, false);
    auto pv = tables.patch_view();
    std::vector<double> kr(n), work(4 * (size_t)n + 64);
    for (int c = 0; c < n; ++c) {
      std::fill(ecol.begin(), ecol.end(), 0.0);
      ecol[c] = 1.0;
      tensor_apply((int)dim, ni, S, true, ecol, t);
      for (int q = 0; q < n; ++q) {
        const int a = q % ni, b = (q / ni) % ni, cc = dim == 3 ? q / (ni * ni) : -1;
        t[q] /= lam[a] + lam[b] + (cc >= 0 ? lam[cc] : 0.0);
      }
      tensor_apply((int)dim, ni, S, false, t, col);
      kr = ecol;
      vpatch::dispatch((int)dim, k, [&](auto D, auto K) { vpatch::cpu::patch_inverse<D(), K()>(pv, vpatch::LocalSolver::FDM, kr.data(), work.data()); });
      for (int r = 0; r < n; ++r) {
        F[(size_t)r * n + c] = col[r];
        Fk[(size_t)r * n + c] = kr[r];
      }
    }
    auto frob_rel = [&](const std::vector<double> &X, const std::vector<double> &Y) {
      double d = 0, m = 0;
      for (size_t i = 0; i < X.size(); ++i) {
        d += (X[i] - Y[i]) * (X[i] - Y[i]);
        m += Y[i] * Y[i];
      }
      return std::sqrt(d / m);
    };
    check(frob_rel(F, Ainv) < 1e-10, "FDM inverse (explicit) vs LAPACK inverse", (int)dim, k, frob_rel(F, Ainv), 1e-10);
    check(frob_rel(Fk, Ainv) < 1e-10, "cpu::patch_inverse (FDM kernel) vs LAPACK inverse", (int)dim, k, frob_rel(Fk, Ainv), 1e-10);
    // The kernel's dense local solver uses the project's Cholesky inverse; check it too.
    if (n <= 1400) {
      vpatch::LevelTables<double> dt((int)dim, e, L, true);
      check(frob_rel(dt.dense_inverse, Ainv) < 1e-10, "dense_inverse table vs LAPACK inverse", (int)dim, k,
            frob_rel(dt.dense_inverse, Ainv), 1e-10);
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %d failures\n", failures ? "FAILED" : "PASSED", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
