// Test 2: one application of PCVPATCH equals an independent reference implementation of the
// sequential multiplicative Schwarz method of paper eq. (2.7): the global matrix is
// assembled from element matrices (mg_reference.hpp), the patches are visited color by color
// (color = sum_i (v_i mod 2) 2^i), the GLOBAL residual b - A x is recomputed after every
// patch, and each patch's interior system (the global matrix restricted to the patch
// interior) is solved with a dense LAPACK LU. Boundary points: x_b = b_b. The additive
// variant is x += w sum_j R_j^T A_j^{-1} R_j (b - A x).
// Compared (to 1e-12 relative) with PCApply (zero initial guess), PCApplyRichardson with a
// nonzero initial guess (1 and 2 sweeps) and KSPRICHARDSON with one iteration from a nonzero
// initial guess, for sweeps forward/backward/symmetric, additive (default and explicit
// damping), damped multiplicative, the dense local solver and the kernels global, boundary, fused, basic. On more
// than one rank the parallel result is also compared with the same PC on PETSC_COMM_SELF.
// Usage: mg_sweep_reference -dim d -kmin a -kmax b -cells 2,3,4
#include "mg_petsc_util.hpp"
#include "mg_reference.hpp"
#include <petscksp.h>
#include <string>

using namespace mgref;

static int failures = 0, checks = 0;

struct CSR {
  int n;
  std::vector<int> ptr, col;
  std::vector<double> val;
  explicit CSR(const Sparse &S) : n(S.n)
  {
    ptr.push_back(0);
    for (auto &row : S.rows) {
      for (auto &kv : row) {
        col.push_back(kv.first);
        val.push_back(kv.second);
      }
      ptr.push_back((int)col.size());
    }
  }
  double row_dot(int i, const std::vector<double> &x) const
  {
    double s = 0;
    for (int p = ptr[i]; p < ptr[i + 1]; ++p) s += val[p] * x[col[p]];
    return s;
  }
  double at(int i, int j) const
  {
    for (int p = ptr[i]; p < ptr[i + 1]; ++p)
      if (col[p] == j) return val[p];
    return 0.0;
  }
};

struct Patch {
  int color;
  std::vector<int> dofs; // interior points of the patch (natural numbering)
  DenseLU lu;            // of the global matrix restricted to dofs
};

struct Reference {
  const Mesh &mesh;
  const CSR &A;
  std::vector<Patch> patches;
  Reference(const Mesh &m, const CSR &a) : mesh(m), A(a)
  {
    const int dim = m.dim, k = m.k, N = m.N;
    for (int vz = (dim == 3 ? 1 : 0); vz < (dim == 3 ? N : 1); ++vz)
      for (int vy = 1; vy < N; ++vy)
        for (int vx = 1; vx < N; ++vx) {
          Patch p;
          p.color = (vx % 2) + 2 * (vy % 2) + (dim == 3 ? 4 * (vz % 2) : 0);
          const int lo[3] = {(vx - 1) * k + 1, (vy - 1) * k + 1, dim == 3 ? (vz - 1) * k + 1 : 0};
          const int hi[3] = {(vx + 1) * k - 1, (vy + 1) * k - 1, dim == 3 ? (vz + 1) * k - 1 : 0};
          for (int l = lo[2]; l <= hi[2]; ++l)
            for (int j = lo[1]; j <= hi[1]; ++j)
              for (int i = lo[0]; i <= hi[0]; ++i) p.dofs.push_back(m.index(i, j, l));
          const int ni = (int)p.dofs.size();
          std::vector<double> Aj((size_t)ni * ni);
          for (int r = 0; r < ni; ++r)
            for (int c = 0; c < ni; ++c) Aj[(size_t)r * ni + c] = A.at(p.dofs[r], p.dofs[c]);
          p.lu.factor(Aj, ni);
          patches.push_back(std::move(p));
        }
  }
  void finish(const std::vector<double> &b, std::vector<double> &x) const
  {
    for (int i = 0; i < mesh.n; ++i)
      if (mesh.boundary(i)) x[i] = b[i];
  }
  // eq. (2.7): x <- s_J o ... o s_1 (x), patches ordered by the given colors, with the
  // global residual recomputed before every patch.
  void multiplicative(const std::vector<int> &colors, double w, const std::vector<double> &b, std::vector<double> &x) const
  {
    for (int c : colors)
      for (const Patch &p : patches) {
        if (p.color != c) continue;
        std::vector<double> r(mesh.n);
        for (int i = 0; i < mesh.n; ++i) r[i] = b[i] - A.row_dot(i, x);
        std::vector<double> rj(p.dofs.size());
        for (size_t q = 0; q < p.dofs.size(); ++q) rj[q] = r[p.dofs[q]];
        p.lu.solve(rj);
        for (size_t q = 0; q < p.dofs.size(); ++q) x[p.dofs[q]] += w * rj[q];
      }
    finish(b, x);
  }
  void additive(double w, const std::vector<double> &b, std::vector<double> &x) const
  {
    std::vector<double> r(mesh.n), dx(mesh.n, 0.0);
    for (int i = 0; i < mesh.n; ++i) r[i] = b[i] - A.row_dot(i, x);
    for (const Patch &p : patches) {
      std::vector<double> rj(p.dofs.size());
      for (size_t q = 0; q < p.dofs.size(); ++q) rj[q] = r[p.dofs[q]];
      p.lu.solve(rj);
      for (size_t q = 0; q < p.dofs.size(); ++q) dx[p.dofs[q]] += rj[q];
    }
    for (int i = 0; i < mesh.n; ++i) x[i] += w * dx[i];
    finish(b, x);
  }
};

struct Variant {
  const char *name, *options;
  enum { Mult, Add } type;
  int sweep; // 0 forward 1 backward 2 symmetric
  double damping;
};

static void check(bool ok, const std::string &what, double value, double tol)
{
  ++checks;
  PetscPrintf(PETSC_COMM_WORLD, "  %-78s %.3e %s\n", what.c_str(), value, ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

static PetscErrorCode ConfigurePC(PC pc, const Variant &v, int idx)
{
  char prefix[32], opts[512];
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "v%d_", idx));
  PetscCall(PCSetOptionsPrefix(pc, prefix));
  std::string s;
  const char *p = v.options;
  while (*p) { // prefix every option of the variant
    while (*p == ' ') ++p;
    if (!*p) break;
    if (*p == '-') {
      s += "-";
      s += prefix;
      ++p;
    }
    while (*p && *p != ' ') s += *p++;
    s += " ";
  }
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-%spc_type vpatch %s", prefix, s.c_str()));
  PetscCall(PetscOptionsInsertString(nullptr, opts));
  PetscCall(PCSetFromOptions(pc));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt dim = 2, kmin = 1, kmax = 4, cells[8] = {2, 3, 4}, ncells = 8;
  PetscMPIInt size, rank;
  PetscBool flg;
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dim", &dim, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-kmin", &kmin, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-kmax", &kmax, nullptr));
  PetscCall(PetscOptionsGetIntArray(nullptr, nullptr, "-cells", cells, &ncells, &flg));
  if (!flg) ncells = 3;
  const double wadd = 1.0 / (dim == 2 ? 4 : 8);
  const Variant variants[] = {
    {"forward", "", Variant::Mult, 0, 1.0},
    {"backward", "-pc_vpatch_sweep backward", Variant::Mult, 1, 1.0},
    {"symmetric", "-pc_vpatch_sweep symmetric", Variant::Mult, 2, 1.0},
    {"additive (default damping 1/2^d)", "-pc_vpatch_type additive", Variant::Add, 0, wadd},
    {"additive, damping 0.3", "-pc_vpatch_type additive -pc_vpatch_damping 0.3", Variant::Add, 0, 0.3},
    {"forward, damping 0.7", "-pc_vpatch_damping 0.7", Variant::Mult, 0, 0.7},
    {"forward, dense local solver", "-pc_vpatch_local_solver dense", Variant::Mult, 0, 1.0},
    {"symmetric, dense local solver", "-pc_vpatch_sweep symmetric -pc_vpatch_local_solver dense", Variant::Mult, 2, 1.0},
    {"additive, dense local solver", "-pc_vpatch_type additive -pc_vpatch_local_solver dense", Variant::Add, 0, wadd},
    {"forward, kernel global", "-pc_vpatch_kernel global", Variant::Mult, 0, 1.0},
    {"backward, kernel global", "-pc_vpatch_sweep backward -pc_vpatch_kernel global", Variant::Mult, 1, 1.0},
    {"symmetric, kernel boundary", "-pc_vpatch_sweep symmetric -pc_vpatch_kernel boundary", Variant::Mult, 2, 1.0},
    {"forward, kernel fused", "-pc_vpatch_kernel fused", Variant::Mult, 0, 1.0},
    {"forward, kernel basic, damping 0.8", "-pc_vpatch_kernel basic -pc_vpatch_damping 0.8", Variant::Mult, 0, 0.8},
  };
  const int nvariants = sizeof(variants) / sizeof(variants[0]);
  const double tol = 1e-12;
  int vidx = 0;
  for (int k = (int)kmin; k <= (int)kmax; ++k) {
    Element ref(k);
    for (PetscInt ci = 0; ci < ncells; ++ci) {
      const int N = (int)cells[ci];
      Mesh mesh((int)dim, k, N);
      const Sparse S = assemble_global(mesh, ref);
      const CSR A(S);
      Reference R(mesh, A);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dim=%d k=%d cells=%d: %d unknowns, %d patches, %d ranks\n", (int)dim, k, N, mesh.n,
                            (int)R.patches.size(), (int)size));
      DM dm, dmself = nullptr;
      Mat Aop, Aself = nullptr;
      Vec b, b2, x, w;
      PetscCall(VPatchCreateDM(PETSC_COMM_WORLD, dim, k, N, &dm));
      PetscCall(DMCreateMatrix(dm, &Aop));
      PetscCall(DMCreateGlobalVector(dm, &b));
      PetscCall(VecDuplicate(b, &x));
      PetscCall(VecDuplicate(b, &w));
      PetscCall(VecDuplicate(b, &b2));
      if (size > 1) {
        PetscCall(VPatchCreateDM(PETSC_COMM_SELF, dim, k, N, &dmself));
        PetscCall(DMCreateMatrix(dmself, &Aself));
      }
      std::vector<double> bn(mesh.n), b2n(mesh.n), x0(mesh.n), y;
      for (int i = 0; i < mesh.n; ++i) {
        bn[i] = hash_random(i, 17 + k + 10 * N);
        b2n[i] = hash_random(i, 4242 + k + 10 * N);
        x0[i] = hash_random(i, 1000 + k + 10 * N);
      }
      char tag[64];
      PetscCall(PetscSNPrintf(tag, sizeof(tag), "[d=%d k=%d N=%d]", (int)dim, k, N));

      // Precondition: the operator is the assembled matrix (else the comparisons below are moot).
      {
        std::vector<double> ax(mesh.n);
        for (int i = 0; i < mesh.n; ++i) ax[i] = A.row_dot(i, x0);
        PetscCall(ToGlobal(dm, x0, x));
        PetscCall(MatMult(Aop, x, w));
        PetscCall(ToNatural(dm, w, y));
        check(rel_diff(y, ax) < tol, std::string(tag) + " MatMult vs assembled matrix", rel_diff(y, ax), tol);
      }
      PetscCall(ToGlobal(dm, bn, b));
      if (N >= 3) { // the comparison distinguishes the orderings and the composite types
        std::vector<int> fwd, bwd;
        for (int c = 0; c < (dim == 2 ? 4 : 8); ++c) fwd.push_back(c);
        bwd.assign(fwd.rbegin(), fwd.rend());
        std::vector<double> xf = x0, xb = x0, xa = x0;
        R.multiplicative(fwd, 1.0, bn, xf);
        R.multiplicative(bwd, 1.0, bn, xb);
        R.additive(wadd, bn, xa);
        check(rel_diff(xf, xb) > 1e-6, std::string(tag) + " (reference forward and backward sweeps differ)", rel_diff(xf, xb), 1e-6);
        check(rel_diff(xf, xa) > 1e-6, std::string(tag) + " (reference multiplicative and additive differ)", rel_diff(xf, xa), 1e-6);
      }
      for (int vi = 0; vi < nvariants; ++vi, ++vidx) {
        const Variant &v = variants[vi];
        auto reference = [&](std::vector<double> xr, int sweeps, const std::vector<double> &bv) {
          for (int s = 0; s < sweeps; ++s) {
            if (v.type == Variant::Add) R.additive(v.damping, bv, xr);
            else {
              std::vector<int> order;
              const int nc = dim == 2 ? 4 : 8;
              if (v.sweep != 1)
                for (int c = 0; c < nc; ++c) order.push_back(c);
              if (v.sweep != 0)
                for (int c = nc - 1; c >= 0; --c) order.push_back(c);
              R.multiplicative(order, v.damping, bv, xr);
            }
          }
          return xr;
        };
        const std::vector<double> ref_zero = reference(std::vector<double>(mesh.n, 0.0), 1, bn);
        const std::vector<double> ref_x0 = reference(x0, 1, bn), ref_x0_2 = reference(x0, 2, bn);
        const std::vector<double> ref_b2 = reference(x0, 1, b2n);
        std::string name = std::string(tag) + " " + v.name;
        PC pc;
        PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
        PetscCall(PCSetOperators(pc, Aop, Aop));
        PetscCall(ConfigurePC(pc, v, vidx));
        PetscCall(PCSetUp(pc));
        // PCApply: one sweep from zero
        PetscCall(PCApply(pc, b, x));
        PetscCall(ToNatural(dm, x, y));
        const std::vector<double> y_apply = y;
        check(rel_diff(y, ref_zero) < tol, name + ": PCApply", rel_diff(y, ref_zero), tol);
        // PCApplyRichardson from a nonzero initial guess, 1 and 2 sweeps
        for (PetscInt its = 1; its <= 2; ++its) {
          PetscInt outits;
          PCRichardsonConvergedReason reason;
          PetscCall(ToGlobal(dm, x0, x));
          PetscCall(PCApplyRichardson(pc, b, x, w, 0.0, 0.0, 0.0, its, PETSC_FALSE, &outits, &reason));
          PetscCall(ToNatural(dm, x, y));
          const std::vector<double> &r = its == 1 ? ref_x0 : ref_x0_2;
          check(rel_diff(y, r) < tol, name + ": PCApplyRichardson x0!=0, its=" + std::to_string(its), rel_diff(y, r), tol);
        }
        // The same PC with another right-hand side (nothing of b may be cached between applications)
        {
          PetscInt outits;
          PCRichardsonConvergedReason reason;
          PetscCall(ToGlobal(dm, b2n, b2));
          PetscCall(ToGlobal(dm, x0, x));
          PetscCall(PCApplyRichardson(pc, b2, x, w, 0.0, 0.0, 0.0, 1, PETSC_FALSE, &outits, &reason));
          PetscCall(ToNatural(dm, x, y));
          check(rel_diff(y, ref_b2) < tol, name + ": PCApplyRichardson with a second right-hand side", rel_diff(y, ref_b2), tol);
        }
        // KSPRICHARDSON, one iteration from a nonzero initial guess
        if (vi < 4) {
          KSP ksp;
          PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
          PetscCall(KSPSetOperators(ksp, Aop, Aop));
          PetscCall(KSPSetType(ksp, KSPRICHARDSON));
          PetscCall(KSPSetPC(ksp, pc));
          PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
          PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
          PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, nullptr, nullptr));
          PetscCall(KSPSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, 1));
          PetscCall(ToGlobal(dm, x0, x));
          PetscCall(KSPSolve(ksp, b, x));
          PetscCall(ToNatural(dm, x, y));
          check(rel_diff(y, ref_x0) < tol, name + ": KSPRICHARDSON 1 it, x0!=0", rel_diff(y, ref_x0), tol);
          PetscCall(KSPDestroy(&ksp));
        }
        PetscCall(PCDestroy(&pc));
        // The same PC on one rank gives the same result.
        if (size > 1) {
          Vec bs, xs;
          PC pcs;
          std::vector<double> ys;
          PetscCall(DMCreateGlobalVector(dmself, &bs));
          PetscCall(VecDuplicate(bs, &xs));
          PetscCall(ToGlobal(dmself, bn, bs));
          PetscCall(PCCreate(PETSC_COMM_SELF, &pcs));
          PetscCall(PCSetOperators(pcs, Aself, Aself));
          PetscCall(ConfigurePC(pcs, v, vidx));
          PetscCall(PCApply(pcs, bs, xs));
          PetscCall(ToNatural(dmself, xs, ys));
          double d = rel_diff(y_apply, ys);
          PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
          check(d < tol, name + ": PCApply on " + std::to_string(size) + " ranks vs 1 rank", d, tol);
          PetscCall(PCDestroy(&pcs));
          PetscCall(VecDestroy(&xs));
          PetscCall(VecDestroy(&bs));
        }
      }
      PetscCall(VecDestroy(&w));
      PetscCall(VecDestroy(&b2));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&b));
      PetscCall(MatDestroy(&Aop));
      PetscCall(MatDestroy(&Aself));
      PetscCall(DMDestroy(&dm));
      PetscCall(DMDestroy(&dmself));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %d of %d checks failed\n", failures ? "FAILED" : "PASSED", failures, checks));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}
