// discretization.operator_assembly_*: the matrix-free MATSHELL of VPatchCreateOperator()
// against a matrix assembled independently of the library's operator code.
//
// Reference: element matrices by full d-dimensional Gauss quadrature ((k+1)^d points) of
// grad(phi_i) . grad(phi_j) with the tensor Lagrange basis through the Gauss-Lobatto points
// (only src/core/basis1d.hpp is reused, for the points, the Gauss rule and the 1D Lagrange
// polynomials; both rules are verified here first), assembled into a sequential AIJ
// matrix in the natural lexicographic numbering (x fastest) of all (N k + 1)^d support
// points, with identity rows and columns on the boundary.
//
// Compared, for each case (dim, k, N): MatMult and MatMultTranspose on several random x
// (relative 2-norm of the difference, over the whole vector in natural order), the
// diagonal (MatGetDiagonal), and x^T A y = y^T A x. In parallel the shell's vectors (DMDA
// ordering per rank) are mapped to natural order with DMDAGlobalToNatural and gathered.
//
// Options: -dim 2|3, -degrees 1,2,..., -cells 1,2,..., -nvec <random vectors>, -tol <rel>.
#include "core/basis1d.hpp"
#include <cmath>
#include <petscdmda.h>
#include <petscversion.h>
#include <vector>
#include <vpatch.h>

#if PETSC_VERSION_LT(3, 19, 0)
  #define PETSC_SUCCESS 0
#endif

namespace {

int failures = 0;

PetscErrorCode Report(const char *what, PetscReal value, PetscReal tol)
{
  PetscFunctionBegin;
  const bool ok = value <= tol; // NaN fails
  if (!ok) ++failures;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "    %-58s %.3e (tol %.1e) %s\n", what, (double)value, (double)tol, ok ? "ok" : "FAILED"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Legendre P_n on [-1,1] by the three-term recurrence (independent of basis1d.hpp).
double legendre_p(int n, double t)
{
  double p0 = 1, p1 = t;
  if (n == 0) return 1;
  for (int j = 2; j <= n; ++j) {
    const double p2 = ((2.0 * j - 1) * t * p1 - (j - 1.0) * p0) / j;
    p0 = p1;
    p1 = p2;
  }
  return p1;
}

// Self-check of the 1D ingredients: the Gauss rule integrates x^m exactly for m <= 2k+1
// and the points are Gauss-Lobatto points: with the Lobatto weights 2/(k(k+1) P_k(t)^2)
// they integrate x^m exactly for m <= 2k-1 (which characterizes the Lobatto points).
PetscErrorCode CheckRules(int k)
{
  std::vector<double> xq, wq;
  PetscFunctionBegin;
  vpatch::gauss_rule(k + 1, xq, wq);
  const std::vector<double> xg = vpatch::gauss_lobatto_points(k);
  double gauss_err = 0, lobatto_err = 0;
  for (int m = 0; m <= 2 * k + 1; ++m) {
    double s = 0;
    for (int q = 0; q <= k; ++q) s += wq[q] * std::pow(xq[q], m);
    gauss_err = std::max(gauss_err, std::abs(s - 1.0 / (m + 1)));
  }
  for (int m = 0; m <= 2 * k - 1; ++m) {
    double s = 0;
    for (int i = 0; i <= k; ++i) {
      const double t = 2 * xg[i] - 1, P = legendre_p(k, t);
      s += 0.5 * 2.0 / (k * (k + 1.0) * P * P) * std::pow(xg[i], m);
    }
    lobatto_err = std::max(lobatto_err, std::abs(s - 1.0 / (m + 1)));
  }
  bool sorted = xg.front() == 0.0 && xg.back() == 1.0;
  for (int i = 0; i < k; ++i) sorted = sorted && xg[i] < xg[i + 1];
  PetscCall(Report("reference: Gauss rule exactness error", gauss_err, 1e-13));
  PetscCall(Report("reference: Gauss-Lobatto rule exactness error", lobatto_err, 1e-13));
  PetscCall(Report("reference: Lobatto points sorted, endpoints 0 and 1 (0=yes)", sorted ? 0.0 : 1.0, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Element stiffness matrix of the cell [0,h]^dim by full dim-dimensional quadrature:
// Ae[i][j] = sum_q w_q grad phi_i(x_q) . grad phi_j(x_q), i, j lexicographic, x fastest.
std::vector<double> ElementMatrix(int dim, int k, double h)
{
  const int nb = k + 1, nloc = dim == 2 ? nb * nb : nb * nb * nb, nqd = nloc;
  std::vector<double> xq, wq;
  vpatch::gauss_rule(nb, xq, wq);
  vpatch::LagrangeBasis basis(vpatch::gauss_lobatto_points(k));
  std::vector<double> Ae((size_t)nloc * nloc, 0.0), grad((size_t)nloc * 3);
  for (int q = 0; q < nqd; ++q) {
    const int qi[3] = {q % nb, (q / nb) % nb, dim == 3 ? q / (nb * nb) : 0};
    double w = 1;
    for (int d = 0; d < dim; ++d) w *= wq[qi[d]] * h;
    for (int i = 0; i < nloc; ++i) {
      const int ii[3] = {i % nb, (i / nb) % nb, dim == 3 ? i / (nb * nb) : 0};
      for (int d = 0; d < dim; ++d) {
        double g = 1;
        for (int e = 0; e < dim; ++e)
          g *= e == d ? basis.derivative(ii[e], xq[qi[e]]) / h : basis.value(ii[e], xq[qi[e]]);
        grad[i * 3 + d] = g;
      }
    }
    for (int i = 0; i < nloc; ++i)
      for (int j = 0; j < nloc; ++j) {
        double s = 0;
        for (int d = 0; d < dim; ++d) s += grad[i * 3 + d] * grad[j * 3 + d];
        Ae[(size_t)i * nloc + j] += w * s;
      }
  }
  return Ae;
}

// Self-checks of the element matrix: A 1 = 0; u^T A u = integral |grad u|^2 for u = x
// (h^dim) and u = x y (2 h^(dim+2) / 3), nodal values at the Lobatto points.
PetscErrorCode CheckElement(int dim, int k, double h, const std::vector<double> &Ae)
{
  const int nb = k + 1, nloc = dim == 2 ? nb * nb : nb * nb * nb;
  const std::vector<double> xg = vpatch::gauss_lobatto_points(k);
  std::vector<double> ux(nloc), uxy(nloc);
  double amax = 0;
  PetscFunctionBeginUser;
  for (double v : Ae) amax = std::max(amax, std::abs(v));
  for (int i = 0; i < nloc; ++i) {
    const double x = xg[i % nb] * h, y = xg[(i / nb) % nb] * h;
    ux[i] = x;
    uxy[i] = x * y;
  }
  double rowsum = 0, ex = 0, exy = 0;
  for (int i = 0; i < nloc; ++i) {
    double s = 0;
    for (int j = 0; j < nloc; ++j) {
      s += Ae[(size_t)i * nloc + j];
      ex += ux[i] * Ae[(size_t)i * nloc + j] * ux[j];
      exy += uxy[i] * Ae[(size_t)i * nloc + j] * uxy[j];
    }
    rowsum = std::max(rowsum, std::abs(s));
  }
  const double vx = std::pow(h, dim), vxy = 2.0 * std::pow(h, dim + 2) / 3.0;
  PetscCall(Report("reference: max |row sum| / max |A_e|", rowsum / amax, 1e-12));
  PetscCall(Report("reference: |u^T A_e u - int |grad u|^2| / .., u = x", std::abs(ex - vx) / vx, 1e-12));
  PetscCall(Report("reference: |u^T A_e u - int |grad u|^2| / .., u = x y", std::abs(exy - vxy) / vxy, 1e-12));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The reference global matrix (sequential, natural numbering, identity boundary rows/cols).
PetscErrorCode AssembleReference(int dim, int k, int N, const std::vector<double> &Ae, Mat *A)
{
  const int nb = k + 1, nloc = dim == 2 ? nb * nb : nb * nb * nb, n = N * k + 1;
  const PetscInt ntot = dim == 2 ? (PetscInt)n * n : (PetscInt)n * n * n;
  auto boundary = [&](int i) { return i == 0 || i == n - 1; };
  auto coupled = [&](int i) { return (i % k == 0 && !boundary(i)) ? 2 * k + 1 : k + 1; };
  std::vector<PetscInt> nnz(ntot), idx(nloc);
  PetscFunctionBegin;
  for (PetscInt g = 0; g < ntot; ++g) {
    const int i = (int)(g % n), j = (int)((g / n) % n), l = dim == 3 ? (int)(g / ((PetscInt)n * n)) : 0;
    const bool bd = boundary(i) || boundary(j) || (dim == 3 && boundary(l));
    nnz[g] = bd ? 1 : coupled(i) * coupled(j) * (dim == 3 ? coupled(l) : 1);
  }
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, ntot, ntot, 0, nnz.data(), A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  for (int cz = 0; cz < (dim == 3 ? N : 1); ++cz)
    for (int cy = 0; cy < N; ++cy)
      for (int cx = 0; cx < N; ++cx) {
        for (int a = 0; a < nloc; ++a) {
          const int i = cx * k + a % nb, j = cy * k + (a / nb) % nb, l = dim == 3 ? cz * k + a / (nb * nb) : 0;
          const bool bd = boundary(i) || boundary(j) || (dim == 3 && boundary(l));
          idx[a] = bd ? -1 : ((PetscInt)l * n + j) * n + i; // negative: ignored by MatSetValues
        }
        PetscCall(MatSetValues(*A, nloc, idx.data(), nloc, idx.data(), Ae.data(), ADD_VALUES));
      }
  for (PetscInt g = 0; g < ntot; ++g)
    if (nnz[g] == 1) PetscCall(MatSetValue(*A, g, g, 1.0, ADD_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ||a - b|| / ||b|| of two sequential vectors.
PetscErrorCode RelDiff(Vec a, Vec b, PetscReal *rel)
{
  Vec d;
  PetscReal nd, nb;
  PetscFunctionBegin;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, b, a));
  PetscCall(VecNorm(d, NORM_2, &nd));
  PetscCall(VecNorm(b, NORM_2, &nb));
  *rel = nb > 0 ? nd / nb : nd;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Gather {
  DM da;
  Vec natural = nullptr, all = nullptr;
  VecScatter toall = nullptr;
  // global (DMDA ordering) -> natural -> the whole vector on every rank (into out).
  PetscErrorCode operator()(Vec global, Vec out)
  {
    PetscFunctionBegin;
    PetscCall(DMDAGlobalToNaturalBegin(da, global, INSERT_VALUES, natural));
    PetscCall(DMDAGlobalToNaturalEnd(da, global, INSERT_VALUES, natural));
    PetscCall(VecScatterBegin(toall, natural, out, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(toall, natural, out, INSERT_VALUES, SCATTER_FORWARD));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
};

PetscErrorCode RunCase(int dim, int k, int N, PetscInt nvec, PetscReal tol, PetscRandom rnd)
{
  DM dm, da;
  Mat A, Aref;
  Vec x, y, z, xa, ya, yra;
  PetscInt M, Mloc, nloc_da, xs[3], xm[3];
  PetscFunctionBegin;
  const int n = N * k + 1;
  const PetscInt ntot = dim == 2 ? (PetscInt)n * n : (PetscInt)n * n * n;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case dim=%d degree=%d cells=%d (%" PetscInt_FMT " points)\n", dim, k, N, ntot));
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, k, N, &dm));
  PetscCall(VPatchCreateOperator(dm, &A));
  PetscCall(VPatchDMGetDA(dm, &da));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecDuplicate(x, &z));

  // Sizes: the shell is (N k + 1)^d square, rows distributed as the DMDA owns points.
  PetscCall(MatGetSize(A, &M, nullptr));
  PetscCall(MatGetLocalSize(A, &Mloc, nullptr));
  PetscCall(DMDAGetCorners(da, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  nloc_da = xm[0] * xm[1] * (dim == 3 ? xm[2] : 1);
  PetscInt bad = (M != ntot || Mloc != nloc_da) ? 1 : 0;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bad, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(Report("global size == (Nk+1)^d and local size == DMDA owned (0=yes)", (PetscReal)bad, 0));

  Gather gather{da};
  PetscCall(DMDACreateNaturalVector(da, &gather.natural));
  PetscCall(VecScatterCreateToAll(gather.natural, &gather.toall, &xa));
  gather.all = xa;
  PetscCall(VecDuplicate(xa, &ya));
  PetscCall(VecDuplicate(xa, &yra));

  const double h = 1.0 / N;
  const std::vector<double> Ae = ElementMatrix(dim, k, h);
  PetscCall(CheckElement(dim, k, h, Ae));
  PetscCall(AssembleReference(dim, k, N, Ae, &Aref));
  {
    PetscBool sym;
    PetscCall(MatIsSymmetric(Aref, 1e-13, &sym));
    PetscCall(Report("reference: assembled matrix symmetric (0=yes)", sym ? 0.0 : 1.0, 0));
  }

  char what[96];
  for (PetscInt v = 0; v < nvec; ++v) {
    PetscReal rel;
    PetscCall(VecSetRandom(x, rnd)); // boundary entries random too: checks the identity rows
    PetscCall(MatMult(A, x, y));
    PetscCall(gather(x, xa));
    PetscCall(gather(y, ya));
    PetscCall(MatMult(Aref, xa, yra));
    PetscCall(RelDiff(ya, yra, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMult x%d: ||Ax - A_ref x|| / ||A_ref x||", (int)v));
    PetscCall(Report(what, rel, tol));
    PetscCall(MatMultTranspose(A, x, y));
    PetscCall(gather(y, ya));
    PetscCall(MatMultTranspose(Aref, xa, yra));
    PetscCall(RelDiff(ya, yra, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMultTranspose x%d: rel. diff. to A_ref^T x", (int)v));
    PetscCall(Report(what, rel, tol));
  }
  {
    PetscReal rel;
    PetscCall(MatGetDiagonal(A, y));
    PetscCall(gather(y, ya));
    PetscCall(MatGetDiagonal(Aref, yra));
    PetscCall(RelDiff(ya, yra, &rel));
    PetscCall(Report("MatGetDiagonal: ||d - d_ref|| / ||d_ref||", rel, tol));
    PetscCall(VecPointwiseDivide(ya, ya, yra)); // entrywise: max |d_i / d_ref_i - 1|
    PetscCall(VecShift(ya, -1.0));
    PetscCall(VecNorm(ya, NORM_INFINITY, &rel));
    PetscCall(Report("MatGetDiagonal: max_i |d_i / d_ref_i - 1|", rel, tol));
  }
  for (PetscInt v = 0; v < nvec; ++v) {
    PetscScalar xAy, yAx;
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(VecSetRandom(y, rnd));
    PetscCall(MatMult(A, y, z));
    PetscCall(VecDot(x, z, &xAy));
    PetscCall(MatMult(A, x, z));
    PetscCall(VecDot(y, z, &yAx));
    const PetscReal scale = PetscMax(PetscAbsScalar(xAy), PetscAbsScalar(yAx));
    PetscCall(PetscSNPrintf(what, sizeof(what), "symmetry %d: |x^T A y - y^T A x| / |x^T A y|", (int)v));
    PetscCall(Report(what, scale > 0 ? PetscAbsScalar(xAy - yAx) / scale : 1.0, tol));
  }

  PetscCall(MatDestroy(&Aref));
  PetscCall(VecScatterDestroy(&gather.toall));
  PetscCall(VecDestroy(&gather.natural));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yra));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

int main(int argc, char **argv)
{
  PetscInt dim = 2, degrees[16] = {1, 2, 3}, cells[16] = {1, 2}, ndeg = 16, ncells = 16, nvec = 3;
  PetscReal tol = 1e-12;
  PetscBool set;
  PetscRandom rnd;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "Compares the vpatch MATSHELL to an independently assembled matrix"));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &ndeg, &set));
  if (!set) ndeg = 3;
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-cells", cells, &ncells, &set));
  if (!set) ncells = 2;
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-nvec", &nvec, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-tol", &tol, nullptr));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20240601));
  PetscCall(PetscRandomSeed(rnd));

  for (PetscInt a = 0; a < ndeg; ++a) PetscCall(CheckRules((int)degrees[a]));
  for (PetscInt a = 0; a < ndeg; ++a)
    for (PetscInt c = 0; c < ncells; ++c) PetscCall(RunCase((int)dim, (int)degrees[a], (int)cells[c], nvec, tol, rnd));

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %d failed check(s)\n", failures ? "FAILED" : "PASSED", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
