// discretization.l2_convergence_*: the L2 error of the Q_k solution of -Laplace u = f,
// u = prod_i sin(pi x_i), decreases as h^(k+1).
//
// For each degree k and the three meshes N, 2N, 4N (-cells N,2N,4N): assemble the
// right-hand side (VPatchFormSineRHS), solve with CG + Jacobi to -rtol (default 1e-13,
// checked to converge), compute the error with VPatchComputeSineL2Error and, as a check of
// that function, independently: the solution gathered in natural order is evaluated at
// the (k+1)^d Gauss points of each cell with the tensor Lagrange basis through the
// Gauss-Lobatto points (only src/core/basis1d.hpp is reused); they must agree to
// 1e-10 e + 1e-15 (round-off in u_h - u bounds the agreement for tiny errors). The observed orders
// log2(e(N)/e(2N)) and log2(e(2N)/e(4N)) must be within -order_tol (0.15) of k+1.
//
// Options: -dim 2|3, -degree k, -cells N,2N,4N, -rtol, -order_tol.
#include "core/basis1d.hpp"
#include <cmath>
#include <petscdmda.h>
#include <petscksp.h>
#include <petscversion.h>
#include <vector>
#include <vpatch.h>
#include "report.hpp"

namespace {

// Squared L2 error of the finite element function with nodal values u (natural order,
// all (Nk+1)^d points) against prod sin(pi x_i), with the (k+1)^d point Gauss rule per cell.
double IndependentL2ErrorSquared(int dim, int k, int N, const PetscScalar *u)
{
  const int nb = k + 1, n = N * k + 1, nloc = dim == 2 ? nb * nb : nb * nb * nb;
  const double h = 1.0 / N;
  std::vector<double> xq, wq;
  vpatch::gauss_rule(nb, xq, wq);
  vpatch::LagrangeBasis basis(vpatch::gauss_lobatto_points(k));
  std::vector<double> phi(nb * nb); // phi[q*nb+a] = L_a(x_q)
  for (int q = 0; q < nb; ++q)
    for (int a = 0; a < nb; ++a) phi[q * nb + a] = basis.value(a, xq[q]);
  double sum = 0;
  std::vector<double> ue(nloc);
  for (int cz = 0; cz < (dim == 3 ? N : 1); ++cz)
    for (int cy = 0; cy < N; ++cy)
      for (int cx = 0; cx < N; ++cx) {
        for (int a = 0; a < nloc; ++a) {
          const long i = cx * k + a % nb, j = cy * k + (a / nb) % nb, l = dim == 3 ? cz * k + a / (nb * nb) : 0;
          ue[a] = PetscRealPart(u[(l * n + j) * n + i]);
        }
        for (int q = 0; q < nloc; ++q) {
          const int q0 = q % nb, q1 = (q / nb) % nb, q2 = dim == 3 ? q / (nb * nb) : 0;
          double uh = 0;
          for (int a = 0; a < nloc; ++a) {
            const int a0 = a % nb, a1 = (a / nb) % nb, a2 = dim == 3 ? a / (nb * nb) : 0;
            uh += ue[a] * phi[q0 * nb + a0] * phi[q1 * nb + a1] * (dim == 3 ? phi[q2 * nb + a2] : 1.0);
          }
          double w = wq[q0] * wq[q1] * h * h, ex = std::sin(M_PI * (cx + xq[q0]) * h) * std::sin(M_PI * (cy + xq[q1]) * h);
          if (dim == 3) {
            w *= wq[q2] * h;
            ex *= std::sin(M_PI * (cz + xq[q2]) * h);
          }
          sum += w * (uh - ex) * (uh - ex);
        }
      }
  return sum;
}

PetscErrorCode SolveAndMeasure(int dim, int k, int N, PetscReal rtol, PetscReal *error)
{
  DM dm, da;
  Mat A;
  Vec b, x, natural, all;
  VecScatter toall;
  KSP ksp;
  PC pc;
  PetscInt its;
  KSPConvergedReason reason;
  PetscReal indep;
  const PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, k, N, &dm));
  PetscCall(VPatchCreateOperator(dm, &A));
  PetscCall(DMCreateGlobalVector(dm, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VPatchFormSineRHS(dm, b));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, rtol, 1e-300, PETSC_DEFAULT, 20000));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(VPatchComputeSineL2Error(dm, x, error));

  PetscCall(VPatchDMGetDA(dm, &da));
  PetscCall(DMDACreateNaturalVector(da, &natural));
  PetscCall(DMDAGlobalToNaturalBegin(da, x, INSERT_VALUES, natural));
  PetscCall(DMDAGlobalToNaturalEnd(da, x, INSERT_VALUES, natural));
  PetscCall(VecScatterCreateToZero(natural, &toall, &all));
  PetscCall(VecScatterBegin(toall, natural, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(toall, natural, all, INSERT_VALUES, SCATTER_FORWARD));
  double e2 = 0;
  PetscMPIInt rank;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) {
    PetscCall(VecGetArrayRead(all, &a));
    e2 = IndependentL2ErrorSquared(dim, k, N, a);
    PetscCall(VecRestoreArrayRead(all, &a));
  }
  PetscCallMPI(MPI_Bcast(&e2, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
  indep = std::sqrt(e2);

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dim=%d degree=%d cells=%d: CG iterations %" PetscInt_FMT " (reason %s), L2 error %.6e (independent %.6e)\n", dim,
                        k, N, its, KSPConvergedReasons[reason], (double)*error, (double)indep));
  PetscCall(Report("  solver converged (reason > 0)", (PetscReal)reason, 1, 1000));
  // Round-off in u_h - u limits the agreement to ~1e-16 absolute for small errors.
  PetscCall(Report("  |e_vpatch - e_independent| (<= 1e-10 e + 1e-15)", std::abs(*error - indep), 0, 1e-10 * indep + 1e-15));

  PetscCall(VecScatterDestroy(&toall));
  PetscCall(VecDestroy(&all));
  PetscCall(VecDestroy(&natural));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

int main(int argc, char **argv)
{
  PetscInt dim = 2, degree = 1, cells[3] = {4, 8, 16}, ncells = 3;
  PetscReal rtol = 1e-13, order_tol = 0.15, e[3];
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "Observed L2 convergence order of the vpatch Q_k discretization"));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-degree", &degree, nullptr));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-cells", cells, &ncells, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-rtol", &rtol, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-order_tol", &order_tol, nullptr));
  PetscCheck(ncells == 3 && cells[1] == 2 * cells[0] && cells[2] == 2 * cells[1], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG,
             "-cells must be three meshes N,2N,4N");

  for (int m = 0; m < 3; ++m) PetscCall(SolveAndMeasure((int)dim, (int)degree, (int)cells[m], rtol, &e[m]));
  char what[96];
  for (int m = 0; m < 2; ++m) {
    const PetscReal order = std::log2(e[m] / e[m + 1]);
    PetscCall(PetscSNPrintf(what, sizeof(what), "observed order log2(e(%d)/e(%d)), expected %d", (int)cells[m], (int)cells[m + 1], (int)degree + 1));
    PetscCall(Report(what, order, degree + 1 - order_tol, degree + 1 + order_tol));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %d failed check(s)\n", failures ? "FAILED" : "PASSED", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
