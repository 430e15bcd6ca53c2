// Test 3: the grid transfer of a vpatch DM hierarchy. The interpolation from
// DMCreateInterpolation(DMCoarsen(fine), fine) applied to a random coarse Q_k function
// (zero on the boundary) equals the coarse function evaluated at the fine support points
// through an independent Lagrange basis on independently computed Gauss-Lobatto points
// (1e-12); coarse boundary values are ignored; the restriction (MatMultTranspose, as
// MatRestrict uses it) is the transpose: y^T (P x) = (P^T y)^T x for random x, y (1e-12);
// MatMultAdd and MatMultTransposeAdd agree with MatMult + VecAXPY; MatMult overwrites every
// entry of its output (boundary included). Two levels of
// coarsening are checked (fine -> coarse -> coarser).
// Usage: mg_transfer -dim d -kmin a -kmax b -cells N [-levels 2|3] [-dm_vec_type cuda]
#include "mg_petsc_util.hpp"
#include "mg_reference.hpp"
#include <string>

using namespace mgref;

static int failures = 0, checks = 0;
static void check(bool ok, const std::string &what, double value, double tol)
{
  ++checks;
  PetscPrintf(PETSC_COMM_WORLD, "  %-70s %.3e (tol %.0e) %s\n", what.c_str(), value, tol, ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

// The coarse Q_k function with coefficients xc (natural ordering) at the point p in [0,1]^dim.
static double evaluate(const Mesh &coarse, const std::vector<double> &nodes, const std::vector<double> &xc, const double p[3])
{
  const int k = coarse.k, dim = coarse.dim;
  int cell[3] = {0, 0, 0};
  double phi[3][16];
  for (int d = 0; d < dim; ++d) {
    double s = p[d] * coarse.N;
    int c = (int)std::floor(s);
    if (c >= coarse.N) c = coarse.N - 1;
    if (c < 0) c = 0;
    cell[d] = c;
    for (int a = 0; a <= k; ++a) phi[d][a] = lagrange(nodes, a, s - c);
  }
  double v = 0;
  for (int c = 0; c <= (dim == 3 ? k : 0); ++c)
    for (int b = 0; b <= k; ++b)
      for (int a = 0; a <= k; ++a) {
        const int idx = coarse.index(cell[0] * k + a, cell[1] * k + b, dim == 3 ? cell[2] * k + c : 0);
        v += xc[idx] * phi[0][a] * phi[1][b] * (dim == 3 ? phi[2][c] : 1.0);
      }
  return v;
}

static PetscErrorCode CheckPair(DM dmc, DM dmf, int dim, int k, int Nc, const std::vector<double> &nodes)
{
  Mat P;
  Vec xc, xf, yc, yf, zc, zf;
  const Mesh mc(dim, k, Nc), mf(dim, k, 2 * Nc);
  char tag[64];
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "[d=%d k=%d %d->%d cells]", dim, k, Nc, 2 * Nc));
  PetscCall(DMCreateInterpolation(dmc, dmf, &P, nullptr));
  PetscCall(DMCreateGlobalVector(dmc, &xc));
  PetscCall(DMCreateGlobalVector(dmf, &xf));
  PetscCall(VecDuplicate(xc, &yc));
  PetscCall(VecDuplicate(xc, &zc));
  PetscCall(VecDuplicate(xf, &yf));
  PetscCall(VecDuplicate(xf, &zf));
  {
    PetscInt m, n, M, N;
    PetscCall(MatGetSize(P, &M, &N));
    PetscCall(MatGetLocalSize(P, &m, &n));
    check(M == mf.n && N == mc.n, std::string(tag) + " interpolation is fine x coarse", (double)std::abs(M - mf.n) + std::abs(N - mc.n), 0.5);
  }

  // Interpolation of a coarse function, zero on the boundary, vs direct evaluation.
  std::vector<double> c0(mc.n), c_bnd(mc.n), ref(mf.n), got;
  for (int i = 0; i < mc.n; ++i) {
    c_bnd[i] = hash_random(i, 7 + k + 100 * Nc);
    c0[i] = mc.boundary(i) ? 0.0 : c_bnd[i];
  }
  for (int i = 0; i < mf.n; ++i) {
    int ic[3];
    mf.coords(i, ic);
    double p[3] = {0, 0, 0};
    for (int d = 0; d < dim; ++d) {
      int cell = ic[d] / k, a = ic[d] % k;
      if (cell == mf.N) { cell = mf.N - 1; a = k; }
      p[d] = (cell + nodes[a]) / mf.N;
    }
    ref[i] = evaluate(mc, nodes, c0, p);
  }
  PetscCall(ToGlobal(dmc, c0, xc));
  PetscCall(VecSet(xf, NAN)); // MatMult overwrites: no entry of xf may survive or be read
  PetscCall(MatMult(P, xc, xf));
  PetscCall(ToNatural(dmf, xf, got));
  check(rel_diff(got, ref) < 1e-12, std::string(tag) + " P x = coarse function at fine points", rel_diff(got, ref), 1e-12);
  double fb = 0;
  for (int i = 0; i < mf.n; ++i)
    if (mf.boundary(i)) fb = std::isnan(got[i]) ? INFINITY : std::max(fb, std::abs(got[i]));
  check(fb == 0.0, std::string(tag) + " P x vanishes on the fine boundary", fb, 0.0);
  // Coarse boundary values are ignored (the spaces are the zero-trace ones).
  PetscCall(ToGlobal(dmc, c_bnd, xc));
  PetscCall(MatMult(P, xc, xf));
  PetscCall(ToNatural(dmf, xf, got));
  check(rel_diff(got, ref) < 1e-12, std::string(tag) + " P ignores coarse boundary values", rel_diff(got, ref), 1e-12);

  // Transpose: y^T (P x) = (P^T y)^T x, fully random x (coarse) and y (fine).
  std::vector<double> xr(mc.n), yr(mf.n);
  for (int i = 0; i < mc.n; ++i) xr[i] = hash_random(i, 31 + k);
  for (int i = 0; i < mf.n; ++i) yr[i] = hash_random(i, 57 + k);
  PetscCall(ToGlobal(dmc, xr, xc));
  PetscCall(ToGlobal(dmf, yr, yf));
  PetscScalar lhs, rhs;
  PetscReal npx, nx, ny, npty;
  PetscCall(MatMult(P, xc, zf));
  PetscCall(VecDot(yf, zf, &lhs));
  PetscCall(MatMultTranspose(P, yf, zc));
  PetscCall(VecDot(zc, xc, &rhs));
  PetscCall(VecNorm(zf, NORM_2, &npx));
  PetscCall(VecNorm(yf, NORM_2, &ny));
  PetscCall(VecNorm(zc, NORM_2, &npty));
  PetscCall(VecNorm(xc, NORM_2, &nx));
  if (Nc * k > 1) { // the coarse space has interior points
    const double scale = std::max(npx * ny, npty * nx);
    check(std::abs(lhs - rhs) / scale < 1e-12, std::string(tag) + " y^T (P x) = (P^T y)^T x", std::abs(lhs - rhs) / scale, 1e-12);
    check(npty > 0 && npx > 0, std::string(tag) + " P x and P^T y are nonzero", npty > 0 && npx > 0 ? 0.0 : 1.0, 0.5);
  } else check(lhs == 0 && rhs == 0, std::string(tag) + " no coarse interior: P = 0", std::abs(lhs) + std::abs(rhs), 0);
  // The restriction against the reference matrix: (P^T y)_j = sum_i y_i P_ij, P_ij = phi_j(fine point i),
  // for coarse interior j, and 0 on the coarse boundary.
  {
    std::vector<double> rt(mc.n, 0.0), e(mc.n, 0.0), ptys;
    PetscCall(ToNatural(dmc, zc, ptys));
    // P columns by evaluating unit coarse functions (only the support matters; small meshes).
    if (mc.n <= 3000) {
      for (int j = 0; j < mc.n; ++j) {
        if (mc.boundary(j)) continue;
        e[j] = 1.0;
        double s = 0;
        for (int i = 0; i < mf.n; ++i) {
          if (mf.boundary(i)) continue;
          int ic[3];
          mf.coords(i, ic);
          double p[3] = {0, 0, 0};
          for (int d = 0; d < dim; ++d) {
            int cell = ic[d] / k, a = ic[d] % k;
            if (cell == mf.N) { cell = mf.N - 1; a = k; }
            p[d] = (cell + nodes[a]) / mf.N;
          }
          // skip points outside the support of coarse basis j
          int jc[3];
          mc.coords(j, jc);
          bool outside = false;
          for (int d = 0; d < dim; ++d) outside = outside || std::abs(p[d] - (double)jc[d] / (k * mc.N)) > 1.0 / mc.N + 1e-14;
          if (!outside) s += yr[i] * evaluate(mc, nodes, e, p);
        }
        rt[j] = s;
        e[j] = 0.0;
      }
      check(rel_diff(ptys, rt) < 1e-12, std::string(tag) + " P^T y vs reference restriction", rel_diff(ptys, rt), 1e-12);
    }
  }
  // MatMultAdd / MatMultTransposeAdd (MatInterpolateAdd and PCMG's restriction paths).
  {
    PetscReal d1, d2, n1, n2;
    PetscCall(VecCopy(yf, xf));
    PetscCall(MatMultAdd(P, xc, yf, xf)); // xf = yf + P xc
    PetscCall(VecAXPY(zf, 1.0, yf));      // zf = P xc + yf
    PetscCall(VecAXPY(xf, -1.0, zf));
    PetscCall(VecNorm(xf, NORM_INFINITY, &d1));
    PetscCall(VecNorm(zf, NORM_INFINITY, &n1));
    check(d1 / n1 < 1e-14, std::string(tag) + " MatMultAdd = MatMult + y", d1 / n1, 1e-14);
    PetscCall(MatMultTransposeAdd(P, yf, xc, yc)); // yc = xc + P^T yf
    PetscCall(VecAXPY(zc, 1.0, xc));
    PetscCall(VecAXPY(yc, -1.0, zc));
    PetscCall(VecNorm(yc, NORM_INFINITY, &d2));
    PetscCall(VecNorm(zc, NORM_INFINITY, &n2));
    check(d2 / n2 < 1e-14, std::string(tag) + " MatMultTransposeAdd = MatMultTranspose + y", d2 / n2, 1e-14);
    // In-place MatMultTransposeAdd (y == z), as PCMG may call it.
    PetscCall(MatMultTranspose(P, yf, zc));
    PetscCall(VecAXPY(zc, 1.0, xc));
    PetscCall(VecCopy(xc, yc));
    PetscCall(MatMultTransposeAdd(P, yf, yc, yc));
    PetscCall(VecAXPY(yc, -1.0, zc));
    PetscCall(VecNorm(yc, NORM_INFINITY, &d2));
    check(d2 / n2 < 1e-14, std::string(tag) + " MatMultTransposeAdd in place", d2 / n2, 1e-14);
  }
  PetscCall(VecDestroy(&xc));
  PetscCall(VecDestroy(&yc));
  PetscCall(VecDestroy(&zc));
  PetscCall(VecDestroy(&xf));
  PetscCall(VecDestroy(&yf));
  PetscCall(VecDestroy(&zf));
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt dim = 2, kmin = 1, kmax = 4, cells = 8, levels = 3;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-levels", &levels, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-kmin", &kmin, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-kmax", &kmax, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-cells", &cells, nullptr));
  for (int k = (int)kmin; k <= (int)kmax; ++k) {
    const std::vector<double> nodes = gll_points(k);
    DM fine, coarse, coarser;
    PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, k, cells, &fine));
    PetscCall(DMSetFromOptions(fine)); // -dm_vec_type cuda: the same checks on device vectors
    PetscCall(DMCoarsen(fine, PETSC_COMM_WORLD, &coarse));
    PetscInt d_, k_, nc;
    PetscCall(VPatchDMGetInfo(coarse, &d_, &k_, &nc));
    check(d_ == dim && k_ == k && nc == cells / 2, "DMCoarsen halves the cells", (double)nc, 0);
    PetscCall(CheckPair(coarse, fine, (int)dim, k, (int)(cells / 2), nodes));
    if (levels >= 3) {
      PetscCall(DMCoarsen(coarse, PETSC_COMM_WORLD, &coarser));
      PetscCall(CheckPair(coarser, coarse, (int)dim, k, (int)(cells / 4), nodes));
      PetscCall(DMDestroy(&coarser));
    }
    PetscCall(DMDestroy(&coarse));
    PetscCall(DMDestroy(&fine));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %d of %d checks failed\n", failures ? "FAILED" : "PASSED", failures, checks));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
