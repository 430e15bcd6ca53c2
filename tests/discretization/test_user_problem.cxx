// discretization.user_problem.*: a user's problem -Laplace u = f, u = g on the boundary,
// through VPatchFormRHS, VPatchInterpolateFunction and VPatchComputeL2Diff.
//
// For each degree k (-degrees) on -cells N cells per direction:
//  1. VPatchFormRHS with f = d pi^2 prod sin(pi x_i) and with f = 1 (g = NULL) equals
//     VPatchFormSineRHS / VPatchFormConstantRHS, which form the load vector as a tensor
//     product of 1D load vectors (another route; 1e-13 of max |b|).
//  2. The interpolant of p = 1 + x/2 - y/3 + 2 prod_i x_i^k (a Q_k function, nonzero on the
//     boundary) is p: VPatchComputeL2Diff(I p, p) <= 1e-13; the L2 norms of the
//     interpolants of 1 and of x are 1 and 1/sqrt(3) (exact integrals; 1e-11: the rounding
//     of a sum over up to 10^5 quadrature points, 1.1e-13 seen on 2 ranks at 3D Q3, 8 cells).
//  3. Galerkin exactness: p lies in the finite element space and f = -Laplace p is
//     integrated exactly, so the discrete solution with g = p is p itself. Solved with CG +
//     PCMG (vpatch levels, symmetric sweeps) and with FGMRES + PCVPATCHMG in single precision
//     from full multigrid: || u_h - p ||_L2 <= 1e-9 ||p|| and max |u_h - I p| <= 1e-9
//     (tests the boundary coupling in the right-hand side and nonzero boundary rows through
//     every smoother, transfer and the float cycle).
//  4. u = exp(x + 2y [+ z/2]) (not in the space, nonzero on the boundary): the L2 error
//     decreases as h^(k+1) from N to 2N (within -order_tol, default 0.2; -order 0 skips).
//  5. Errors: a point function's error code is returned (on every rank, also where it fails
//     on rank 0 alone), a DM that is not a vpatch DM, a vector of another size or of another
//     vpatch mesh of the same size, NULL arguments and a missing function are PETSc errors.
//
// Options: -dim 2|3, -degrees k1,k2,..., -cells N, -order_tol, -order 0|1; the DM's options
// (-dm_vec_type cuda: on device vectors).
#include <cmath>
#include <petscdmda.h>
#include <petscksp.h>
#include <vpatch.h>
#include "report.hpp"

namespace {

struct Degree {
  PetscInt k;
};

// p = 1 + x/2 - y/3 + 2 prod_i x_i^k and f = -Laplace p
PetscErrorCode Polynomial(PetscInt dim, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *ctx)
{
  const PetscInt k = static_cast<Degree *>(ctx)->k;
  PetscReal prod = 2;
  for (PetscInt d = 0; d < dim; ++d) prod *= std::pow(x[d], (double)k);
  u[0] = 1 + x[0] / 2 - x[1] / 3 + prod;
  return PETSC_SUCCESS;
}

PetscErrorCode MinusLaplacePolynomial(PetscInt dim, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *ctx)
{
  const PetscInt k = static_cast<Degree *>(ctx)->k;
  PetscReal sum = 0;
  for (PetscInt d = 0; d < dim; ++d) {
    PetscReal term = k < 2 ? 0.0 : 2.0 * k * (k - 1) * std::pow(x[d], (double)(k - 2));
    for (PetscInt e = 0; e < dim; ++e)
      if (e != d) term *= std::pow(x[e], (double)k);
    sum += term;
  }
  u[0] = -sum;
  return PETSC_SUCCESS;
}

// u = exp(x + 2y [+ z/2]), -Laplace u = -(1 + 4 [+ 1/4]) u
PetscErrorCode Exponential(PetscInt dim, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *)
{
  u[0] = std::exp(x[0] + 2 * x[1] + (dim == 3 ? x[2] / 2 : 0.0));
  return PETSC_SUCCESS;
}

PetscErrorCode MinusLaplaceExponential(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nc, PetscScalar *u, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Exponential(dim, t, x, nc, u, ctx));
  u[0] *= -(dim == 3 ? 5.25 : 5.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode Sine(PetscInt dim, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *)
{
  PetscReal v = dim * M_PI * M_PI;
  for (PetscInt d = 0; d < dim; ++d) v *= std::sin(M_PI * x[d]);
  u[0] = v;
  return PETSC_SUCCESS;
}

PetscErrorCode One(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *u, void *)
{
  u[0] = 1;
  return PETSC_SUCCESS;
}

PetscErrorCode CoordinateX(PetscInt, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *)
{
  u[0] = x[0];
  return PETSC_SUCCESS;
}

PetscErrorCode Failing(PetscInt, PetscReal, const PetscReal x[], PetscInt, PetscScalar *u, void *)
{
  u[0] = 0;
  return x[0] > 0.5 ? PETSC_ERR_USER : PETSC_SUCCESS;
}

// fails on rank 0 alone (ctx: the rank)
PetscErrorCode FailingOnRank0(PetscInt, PetscReal, const PetscReal[], PetscInt, PetscScalar *u, void *ctx)
{
  u[0] = 1;
  return *static_cast<PetscMPIInt *>(ctx) == 0 ? PETSC_ERR_USER : PETSC_SUCCESS;
}

// max |a - b| / scale
PetscErrorCode MaxDiff(Vec a, Vec b, PetscReal scale, PetscReal *d)
{
  Vec w;
  PetscFunctionBegin;
  PetscCall(VecDuplicate(a, &w));
  PetscCall(VecWAXPY(w, -1.0, a, b));
  PetscCall(VecNorm(w, NORM_INFINITY, d));
  *d /= scale;
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Solves A u = b to rtol with the KSP and PC set up by configure(ksp, pc), from zero or (fmg)
// from PCVPATCHMG's full multigrid; returns the converged reason.
template <typename Configure>
PetscErrorCode Solve(DM dm, Mat A, Vec b, Vec u, PetscReal rtol, Configure &&configure, bool fmg, KSPConvergedReason *reason)
{
  KSP ksp;
  PC pc;
  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, dm));
  PetscCall(KSPSetDMActive(ksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetTolerances(ksp, rtol, 1e-300, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(configure(ksp, pc));
  PetscCall(VecSet(u, 0));
  if (fmg) {
    PetscCall(KSPSetUp(ksp));
    PetscCall(PCVPatchMGApplyFull(pc, b, u));
    PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  PetscCall(KSPSolve(ksp, b, u));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckDegree(PetscInt dim, PetscInt k, PetscInt N, PetscBool order, PetscReal order_tol)
{
  DM dm;
  Mat A;
  Vec b, ref, u, ip;
  Degree deg{k};
  PetscReal d, bmax, pnorm;
  KSPConvergedReason reason;
  char what[128];
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dim=%" PetscInt_FMT " degree=%" PetscInt_FMT " cells=%" PetscInt_FMT "\n", dim, k, N));
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, k, N, &dm));
  PetscCall(DMSetFromOptions(dm)); // -dm_vec_type cuda: the same checks on device vectors
  PetscCall(DMCreateMatrix(dm, &A));
  PetscCall(DMCreateGlobalVector(dm, &b));
  PetscCall(VecDuplicate(b, &ref));
  PetscCall(VecDuplicate(b, &u));
  PetscCall(VecDuplicate(b, &ip));

  // 1. the load vector against the separable route
  PetscCall(VPatchFormRHS(dm, Sine, nullptr, nullptr, b));
  PetscCall(VPatchFormSineRHS(dm, ref));
  PetscCall(VecNorm(ref, NORM_INFINITY, &bmax));
  PetscCall(MaxDiff(b, ref, bmax, &d));
  PetscCall(Report("FormRHS(sine) against FormSineRHS, max diff / max |b|", d, 0, 1e-13));
  PetscCall(VPatchFormRHS(dm, One, nullptr, nullptr, b));
  PetscCall(VPatchFormConstantRHS(dm, ref));
  PetscCall(VecNorm(ref, NORM_INFINITY, &bmax));
  PetscCall(MaxDiff(b, ref, bmax, &d));
  PetscCall(Report("FormRHS(1) against FormConstantRHS, max diff / max |b|", d, 0, 1e-13));

  // 2. interpolants and norms
  PetscCall(VPatchInterpolateFunction(dm, Polynomial, &deg, ip));
  PetscCall(VPatchComputeL2Diff(dm, ip, Polynomial, &deg, &d));
  PetscCall(Report("|| I p - p ||_L2 (p in Q_k)", d, 0, 1e-13));
  PetscCall(VPatchComputeL2Diff(dm, ip, nullptr, nullptr, &pnorm));
  PetscCall(VPatchInterpolateFunction(dm, One, nullptr, u));
  PetscCall(VPatchComputeL2Diff(dm, u, nullptr, nullptr, &d));
  PetscCall(Report("| ||I 1||_L2 - 1 | (rounding of the weights' sum)", std::abs(d - 1), 0, 1e-11));
  PetscCall(VPatchInterpolateFunction(dm, CoordinateX, nullptr, u));
  PetscCall(VPatchComputeL2Diff(dm, u, nullptr, nullptr, &d));
  PetscCall(Report("| ||I x||_L2 - 1/sqrt(3) |", std::abs(d - 1 / std::sqrt(3.0)), 0, 1e-11));

  // 3. Galerkin exactness with nonzero boundary values
  PetscCall(VPatchFormRHS(dm, MinusLaplacePolynomial, Polynomial, &deg, b));
  const auto check_exact = [&](const char *how) -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: converged", how));
    PetscCall(Report(what, (PetscReal)reason, 1, 1000));
    PetscCall(VPatchComputeL2Diff(dm, u, Polynomial, &deg, &d));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: || u_h - p ||_L2 / ||p||", how));
    PetscCall(Report(what, d / pnorm, 0, 1e-9));
    PetscCall(MaxDiff(u, ip, 1.0, &d));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: max |u_h - I p|", how));
    PetscCall(Report(what, d, 0, 1e-9));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  PetscCall(Solve(
    dm, A, b, u, 1e-13,
    [&](KSP ksp, PC pc) -> PetscErrorCode {
      PetscFunctionBegin;
      PetscCall(KSPSetType(ksp, KSPCG));
      PetscCall(PCSetType(pc, PCMG));
      PetscInt levels;
      PetscCall(DMGetRefineLevel(dm, &levels)); // the DM's depth: every level down to 2 cells
      PetscCall(PCMGSetLevels(pc, ++levels, nullptr));
      for (PetscInt l = 1; l < levels; ++l) {
        KSP smoother;
        PC spc;
        PetscCall(PCMGGetSmoother(pc, l, &smoother));
        PetscCall(KSPSetType(smoother, KSPRICHARDSON));
        PetscCall(KSPSetTolerances(smoother, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 1));
        PetscCall(KSPGetPC(smoother, &spc));
        PetscCall(PCSetType(spc, PCVPATCH));
        PetscCall(PCVPatchSetSweepType(spc, PC_VPATCH_SWEEP_SYMMETRIC));
      }
      PetscFunctionReturn(PETSC_SUCCESS);
    },
    false, &reason));
  PetscCall(check_exact("CG + PCMG(vpatch)"));
  for (bool fmg : {false, true}) {
    PetscCall(Solve(
      dm, A, b, u, 1e-11,
      [](KSP ksp, PC pc) -> PetscErrorCode {
        PetscFunctionBegin;
        PetscCall(KSPSetType(ksp, KSPFGMRES));
        PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
        PetscCall(PCSetType(pc, PCVPATCHMG)); // single precision by default
        PetscFunctionReturn(PETSC_SUCCESS);
      },
      fmg, &reason));
    PetscCall(check_exact(fmg ? "full multigrid + FGMRES + PCVPATCHMG single" : "FGMRES + PCVPATCHMG single"));
  }

  // full multigrid alone: with p's boundary values lifted, u - L is in the coarsest mesh's Q_k
  // and vanishes on the boundary, so where the coarsest level is solved exactly (2 cells per
  // direction: N a power of 2) the nested iteration reproduces p (restricting b as for zero
  // boundary values missed it by 1e-3 and more); also with b scaled by 1e-170, whose squares
  // underflow
  const bool exact_coarsest = (N & (N - 1)) == 0;
  for (PCVPatchMGPrecision precision : {PC_VPATCHMG_DOUBLE, PC_VPATCHMG_SINGLE})
    for (PetscReal scale : {1.0, 1e-170}) {
      KSP ksp;
      PC pc;
      const PetscReal tol = precision == PC_VPATCHMG_DOUBLE ? 1e-9 : 1e-5;
      if (!exact_coarsest || (precision == PC_VPATCHMG_SINGLE && scale != 1.0)) continue; // (float's range)
      PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
      PetscCall(KSPSetOperators(ksp, A, A));
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCSetType(pc, PCVPATCHMG));
      PetscCall(PCVPatchMGSetPrecision(pc, precision));
      PetscCall(KSPSetUp(ksp));
      PetscCall(VecScale(b, scale));
      PetscCall(PCVPatchMGApplyFull(pc, b, u));
      PetscCall(VecScale(b, 1 / scale));
      PetscCall(VecScale(u, 1 / scale));
      PetscCall(VPatchComputeL2Diff(dm, u, Polynomial, &deg, &d));
      PetscCall(PetscSNPrintf(what, sizeof(what), "full multigrid alone (%s, b scaled by %g): || u_h - p ||_L2 / ||p||",
                              precision == PC_VPATCHMG_DOUBLE ? "double" : "single", (double)scale));
      PetscCall(Report(what, d / pnorm, 0, tol));
      PetscCall(KSPDestroy(&ksp));
    }

  // 4. convergence order for a function outside the space
  if (order) {
    PetscReal e[2];
    for (int m = 0; m < 2; ++m) {
      DM dmm;
      Mat Am;
      Vec bm, um;
      PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, k, N << m, &dmm));
      PetscCall(DMSetFromOptions(dmm));
      PetscCall(DMCreateMatrix(dmm, &Am));
      PetscCall(DMCreateGlobalVector(dmm, &bm));
      PetscCall(VecDuplicate(bm, &um));
      PetscCall(VPatchFormRHS(dmm, MinusLaplaceExponential, Exponential, nullptr, bm));
      PetscCall(Solve(
        dmm, Am, bm, um, 1e-13,
        [](KSP ksp, PC pc) -> PetscErrorCode {
          PetscFunctionBegin;
          PetscCall(KSPSetType(ksp, KSPCG));
          PetscCall(PCSetType(pc, PCJACOBI));
          PetscFunctionReturn(PETSC_SUCCESS);
        },
        false, &reason));
      PetscCall(Report("exp: CG + Jacobi converged", (PetscReal)reason, 1, 1000));
      PetscCall(VPatchComputeL2Diff(dmm, um, Exponential, nullptr, &e[m]));
      PetscCall(VecDestroy(&um));
      PetscCall(VecDestroy(&bm));
      PetscCall(MatDestroy(&Am));
      PetscCall(DMDestroy(&dmm));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  exp: L2 errors %.4e, %.4e\n", (double)e[0], (double)e[1]));
    PetscCall(PetscSNPrintf(what, sizeof(what), "exp: observed order log2(e(N)/e(2N)), expected %" PetscInt_FMT, k + 1));
    PetscCall(Report(what, std::log2(e[0] / e[1]), k + 1 - order_tol, k + 1 + order_tol));
  }

  PetscCall(VecDestroy(&ip));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&ref));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// 5. errors come back as codes (PetscReturnErrorHandler), with the expected number
PetscErrorCode CheckErrors(PetscInt dim)
{
  DM dm, da;
  Vec b, other;
  PetscReal d;
  PetscErrorCode ierr;
  PetscFunctionBegin;
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, 2, 4, &dm));
  PetscCall(DMCreateGlobalVector(dm, &b));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 7, &other));
  DM q4 = nullptr;
  Vec same_size = nullptr; // Q2 on 4 cells and Q4 on 2 cells have the same points (and parts on 1 or 2 ranks)
  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size <= 2) {
    PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, 4, 2, &q4));
    PetscCall(DMCreateGlobalVector(q4, &same_size));
  }
  PetscCall(VPatchDMGetDA(dm, &da));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "errors (dim=%" PetscInt_FMT ")\n", dim));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr));
  // the smallest code over the ranks: each rank must return the error
  const auto expect = [](const char *what, PetscErrorCode got, PetscErrorCode want) -> PetscErrorCode {
    PetscMPIInt mine = (PetscMPIInt)got, least;
    PetscFunctionBegin;
    PetscCallMPI(MPI_Allreduce(&mine, &least, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
    PetscCall(Report(what, (PetscReal)least, (PetscReal)want, (PetscReal)want));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  PetscMPIInt rank;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  ierr = VPatchFormRHS(dm, Failing, nullptr, nullptr, b);
  PetscCall(expect("FormRHS: f's error PETSC_ERR_USER", ierr, PETSC_ERR_USER));
  ierr = VPatchFormRHS(dm, nullptr, Failing, nullptr, b);
  PetscCall(expect("FormRHS: g's error PETSC_ERR_USER", ierr, PETSC_ERR_USER));
  ierr = VPatchInterpolateFunction(dm, Failing, nullptr, b);
  PetscCall(expect("InterpolateFunction: u's error PETSC_ERR_USER", ierr, PETSC_ERR_USER));
  ierr = VPatchComputeL2Diff(dm, b, Failing, nullptr, &d);
  PetscCall(expect("ComputeL2Diff: exact's error PETSC_ERR_USER", ierr, PETSC_ERR_USER));
  ierr = VPatchFormRHS(dm, FailingOnRank0, nullptr, &rank, b);
  PetscCall(expect("FormRHS: f fails on rank 0 alone, every rank PETSC_ERR_USER", ierr, PETSC_ERR_USER));
  ierr = VPatchComputeL2Diff(dm, b, FailingOnRank0, &rank, &d);
  PetscCall(expect("ComputeL2Diff: exact fails on rank 0 alone, every rank PETSC_ERR_USER", ierr, PETSC_ERR_USER));
  ierr = VPatchInterpolateFunction(dm, FailingOnRank0, &rank, b);
  PetscCall(expect("InterpolateFunction: u fails on rank 0 alone, every rank PETSC_ERR_USER", ierr, PETSC_ERR_USER));
  ierr = VPatchComputeL2Diff(dm, b, One, nullptr, nullptr);
  PetscCall(expect("ComputeL2Diff: NULL result PETSC_ERR_ARG_NULL", ierr, PETSC_ERR_ARG_NULL));
  ierr = VPatchFormRHS(nullptr, One, nullptr, nullptr, b);
  PetscCall(expect("FormRHS: NULL DM PETSC_ERR_ARG_NULL", ierr, PETSC_ERR_ARG_NULL));
  ierr = VPatchInterpolateFunction(dm, One, nullptr, nullptr);
  PetscCall(expect("InterpolateFunction: NULL vector PETSC_ERR_ARG_NULL", ierr, PETSC_ERR_ARG_NULL));
  ierr = VPatchInterpolateFunction(dm, nullptr, nullptr, b);
  PetscCall(expect("InterpolateFunction: no function PETSC_ERR_ARG_NULL", ierr, PETSC_ERR_ARG_NULL));
  ierr = VPatchFormRHS(da, One, nullptr, nullptr, b);
  PetscCall(expect("FormRHS on a DMDA: PETSC_ERR_ARG_WRONG", ierr, PETSC_ERR_ARG_WRONG));
  ierr = VPatchComputeL2Diff(dm, other, One, nullptr, &d);
  PetscCall(expect("ComputeL2Diff on a vector of 7: PETSC_ERR_ARG_SIZ", ierr, PETSC_ERR_ARG_SIZ));
  ierr = VPatchFormRHS(dm, One, nullptr, nullptr, other);
  PetscCall(expect("FormRHS into a vector of 7: PETSC_ERR_ARG_SIZ", ierr, PETSC_ERR_ARG_SIZ));
  DM other_grid = nullptr; // on 2 ranks: the same mesh split along x instead of y (the same local sizes)
  Vec other_grid_vec = nullptr;
  if (size == 2) {
    PetscCall(PetscOptionsSetValue(nullptr, "-da_processors_x", "2"));
    PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, 2, 4, &other_grid));
    PetscCall(PetscOptionsClearValue(nullptr, "-da_processors_x"));
    PetscCall(DMCreateGlobalVector(other_grid, &other_grid_vec));
    ierr = VPatchComputeL2Diff(dm, other_grid_vec, One, nullptr, &d);
    PetscCall(expect("ComputeL2Diff on a vector of the same mesh on another rank grid: PETSC_ERR_ARG_INCOMP", ierr, PETSC_ERR_ARG_INCOMP));
    PetscCall(VecDestroy(&other_grid_vec));
    PetscCall(DMDestroy(&other_grid));
  }
  if (same_size) {
    ierr = VPatchComputeL2Diff(dm, same_size, One, nullptr, &d);
    PetscCall(expect("ComputeL2Diff on a vector of Q4 on 2 cells (same size): PETSC_ERR_ARG_INCOMP", ierr, PETSC_ERR_ARG_INCOMP));
    ierr = VPatchFormRHS(dm, One, nullptr, nullptr, same_size);
    PetscCall(expect("FormRHS into a vector of Q4 on 2 cells (same size): PETSC_ERR_ARG_INCOMP", ierr, PETSC_ERR_ARG_INCOMP));
  }
  PetscCall(PetscPopErrorHandler());
  PetscCall(VecDestroy(&same_size));
  PetscCall(DMDestroy(&q4));
  PetscCall(VecDestroy(&other));
  PetscCall(VecDestroy(&b));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

int main(int argc, char **argv)
{
  PetscInt dim = 2, degrees[10] = {1, 2, 3}, ndeg = 10, cells = 4;
  PetscReal order_tol = 0.2;
  PetscBool order = PETSC_TRUE, set;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, "A user's Poisson problem on a vpatch DM: right-hand side, interpolant, L2 error"));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-degrees", degrees, &ndeg, &set));
  if (!set) ndeg = 3;
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-cells", &cells, nullptr));
  PetscCall(PetscOptionsGetReal(nullptr, nullptr, "-order_tol", &order_tol, nullptr));
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-order", &order, nullptr));
  for (PetscInt i = 0; i < ndeg; ++i) PetscCall(CheckDegree(dim, degrees[i], cells, order, order_tol));
  PetscCall(CheckErrors(dim));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %d failed check(s)\n", failures ? "FAILED" : "PASSED", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
