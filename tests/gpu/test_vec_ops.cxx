// The device vectors' VecMDot and VecMAXPY (src/petsc/device_vec_ops.hpp) against sums formed
// on the host from the same values: list sizes 1..19 (two groups of eight and a remainder),
// meshes from 9 points to 7.2M, values last written on the host or on the device, a list that
// holds x itself, the split-phase VecMDotBegin / End; duplicates must carry the operations.
// Run on 1 and 2 ranks. Prints PETSc's own VECCUDA results against the same sums as a second
// reading (not checked). Exit status: the number of failed checks.
#include <petsc/private/vecimpl.h>
#include <vpatch.h>
#include <algorithm>
#include <cmath>
#include <vector>

static int failures = 0, checks = 0;
static void Check(bool ok, const char *what, PetscInt nv, double err)
{
  ++checks;
  if (!ok) {
    ++failures;
    PetscCallVoid(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s nv=%" PetscInt_FMT " err=%.3e\n", what, nv, err));
  }
}

// A vector's owned values on the host.
static PetscErrorCode HostCopy(Vec v, std::vector<double> &h)
{
  const PetscScalar *a;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayRead(v, &a));
  h.assign(a, a + n);
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// max_i |v_i - h_i| over the communicator, and max_i |h_i|
static PetscErrorCode MaxDiff(Vec v, const std::vector<double> &h, double *d, double *s)
{
  std::vector<double> a;
  double loc[2] = {0, 0};
  PetscFunctionBeginUser;
  PetscCall(HostCopy(v, a));
  for (size_t i = 0; i < a.size(); ++i) {
    loc[0] = std::max(loc[0], std::fabs(a[i] - h[i]));
    loc[1] = std::max(loc[1], std::fabs(h[i]));
  }
  double glob[2];
  PetscCallMPI(MPI_Allreduce(loc, glob, 2, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  *d = glob[0];
  *s = glob[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The host's sums over the communicator: sums[2j] = x . y_j, sums[2j + 1] = sum_i |x_i y_j,i|
// (the scale of its rounding), j < nv.
static PetscErrorCode HostDots(const std::vector<double> &hx, const std::vector<std::vector<double>> &hy, PetscInt nv, std::vector<double> &sums)
{
  std::vector<double> dots(2 * nv, 0.0);
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < nv; ++j) {
    long double s = 0, a = 0;
    for (size_t i = 0; i < hx.size(); ++i) {
      s += (long double)hx[i] * hy[j][i];
      a += std::fabs((long double)hx[i] * hy[j][i]);
    }
    dots[2 * j] = (double)s;
    dots[2 * j + 1] = (double)a;
  }
  sums.resize(2 * nv);
  PetscCallMPI(MPI_Allreduce(dots.data(), sums.data(), 2 * (int)nv, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunMesh(PetscInt dim, PetscInt degree, PetscInt cells)
{
  DM       dm;
  Vec      x, ref, *Y, *R, y, r;
  const PetscInt m = 19;
  PetscScalar v[m], w[m], alpha[m];
  PetscRandom rnd;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, degree, cells, &dm));
  PetscCall(DMSetVecType(dm, VECCUDA));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecGetSize(x, &n));
  PetscCall(VecDuplicateVecs(x, m, &Y));
  PetscCall(VecDuplicate(x, &y));
  // PETSc's VECCUDA with the same layout and values (the second reading)
  PetscCall(VecCreate(PETSC_COMM_WORLD, &ref));
  PetscCall(VecSetLayout(ref, x->map));
  PetscCall(VecSetType(ref, VECCUDA));
  PetscCall(VecDuplicateVecs(ref, m, &R));
  PetscCall(VecDuplicate(ref, &r));
  Check(x->ops->mdot != ref->ops->mdot && x->ops->maxpy != ref->ops->maxpy, "the DM's vector has its own operations", 0, 0);
  Check(Y[m - 1]->ops->mdot == x->ops->mdot && y->ops->maxpy == x->ops->maxpy, "duplicates carry the operations", 0, 0);
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(ref, rnd));
  PetscCall(VecCopy(ref, x));
  std::vector<double> hx;
  std::vector<std::vector<double>> hy(m);
  PetscCall(HostCopy(x, hx));
  for (PetscInt j = 0; j < m; ++j) {
    PetscCall(VecSetRandom(R[j], rnd));
    if (j % 3 == 0) { // values last written on the host
      const PetscScalar *a;
      PetscScalar *b;
      PetscCall(VecGetArrayRead(R[j], &a));
      PetscCall(VecGetArrayWrite(Y[j], &b));
      for (PetscInt i = 0; i < x->map->n; ++i) b[i] = a[i];
      PetscCall(VecRestoreArrayWrite(Y[j], &b));
      PetscCall(VecRestoreArrayRead(R[j], &a));
    } else PetscCall(VecCopy(R[j], Y[j]));
    PetscCall(HostCopy(R[j], hy[j]));
  }
  double worst_petsc[2] = {0, 0};
  for (PetscInt nv = 1; nv <= m; ++nv) {
    std::vector<double> sums;
    PetscCall(HostDots(hx, hy, nv, sums));
    PetscCall(VecMDot(x, nv, Y, v));
    PetscCall(VecMDot(ref, nv, R, w));
    double err = 0, errp = 0;
    for (PetscInt j = 0; j < nv; ++j) {
      err = std::max(err, std::fabs((double)v[j] - sums[2 * j]) / sums[2 * j + 1]);
      errp = std::max(errp, std::fabs((double)w[j] - sums[2 * j]) / sums[2 * j + 1]);
    }
    Check(err <= 50 * PETSC_MACHINE_EPSILON, "VecMDot", nv, err);
    worst_petsc[0] = std::max(worst_petsc[0], errp);
    for (PetscInt j = 0; j < nv; ++j) alpha[j] = 0.5 - 0.1 * j;
    std::vector<double> hr(hx);
    for (PetscInt j = 0; j < nv; ++j)
      for (size_t i = 0; i < hr.size(); ++i) hr[i] += alpha[j] * hy[j][i];
    PetscCall(VecCopy(ref, r));
    PetscCall(VecCopy(ref, y));
    PetscCall(VecMAXPY(y, nv, alpha, Y));
    PetscCall(VecMAXPY(r, nv, alpha, R));
    double d, s;
    PetscCall(MaxDiff(y, hr, &d, &s));
    Check(d <= 50 * PETSC_MACHINE_EPSILON * s, "VecMAXPY", nv, d / s);
    PetscCall(MaxDiff(r, hr, &d, &s));
    worst_petsc[1] = std::max(worst_petsc[1], d / s);
  }
  { // the split-phase form (VecMDotBegin / End: pipelined Krylov methods)
    std::vector<double> sums;
    PetscCall(HostDots(hx, hy, m, sums));
    PetscCall(VecMDotBegin(x, m, Y, v));
    PetscCall(VecMDotEnd(x, m, Y, v));
    double err = 0;
    for (PetscInt j = 0; j < m; ++j) err = std::max(err, std::fabs((double)v[j] - sums[2 * j]) / sums[2 * j + 1]);
    Check(err <= 50 * PETSC_MACHINE_EPSILON, "VecMDotBegin/End", m, err);
  }
  // x among the vectors: its own square
  Vec XY[2] = {Y[0], x};
  PetscCall(VecMDot(x, 2, XY, v));
  PetscReal nx;
  PetscCall(VecNorm(x, NORM_2, &nx));
  Check(std::fabs((double)v[1] - nx * nx) <= 500 * PETSC_MACHINE_EPSILON * nx * nx, "VecMDot with x in the list", 2, std::fabs((double)v[1] - nx * nx));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT "D Q%" PetscInt_FMT " %" PetscInt_FMT " cells: %" PetscInt_FMT " entries; PETSc's VECCUDA against the host's sums: VecMDot %.2e, VecMAXPY %.2e\n", dim, degree, cells, n,
                        worst_petsc[0], worst_petsc[1]));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroyVecs(m, &Y));
  PetscCall(VecDestroyVecs(m, &R));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ref));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// -vpatch_device_vec_ops 0: the DM's vectors keep PETSc's operations.
static PetscErrorCode CheckOptionOff()
{
  DM  dm;
  Vec x, ref;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(nullptr, "-vpatch_device_vec_ops", "0"));
  PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, 2, 1, 2, &dm));
  PetscCall(DMSetVecType(dm, VECCUDA));
  PetscCall(DMCreateGlobalVector(dm, &x));
  PetscCall(VecCreate(PETSC_COMM_WORLD, &ref));
  PetscCall(VecSetLayout(ref, x->map));
  PetscCall(VecSetType(ref, VECCUDA));
  Check(x->ops->mdot == ref->ops->mdot && x->ops->maxpy == ref->ops->maxpy, "-vpatch_device_vec_ops 0 keeps PETSc's operations", 0, 0);
  PetscCall(PetscOptionsClearValue(nullptr, "-vpatch_device_vec_ops"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ref));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(RunMesh(2, 1, 2));
  PetscCall(RunMesh(3, 2, 16));
  PetscCall(RunMesh(3, 3, 64));
  PetscCall(CheckOptionOff());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d passed, %d failed\n", checks - failures, failures));
  PetscCall(PetscFinalize());
  return failures;
}
