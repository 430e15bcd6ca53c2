// The level operator as a MATSHELL: MatMult by sum factorization (the kernels of
// LevelOps), MatMultTranspose (= MatMult, A is symmetric), MatResidual, MatGetDiagonal.
#include "../../include/vpatch.h"
#include "logging.hpp"
#include "shell_base.hpp"
#include <petsc/private/pcimpl.h> // pc->pmat, pc->reusepreconditioner
#include "vec_access.hpp"
#include <cfloat>
#include <cmath>

namespace vpatch {

struct OperatorContext {
  explicit OperatorContext(std::shared_ptr<Level> level) : ops(std::move(level)) {}
  LevelOpsCache<PetscScalar> ops;
  ShellBase shell;
};

static PetscErrorCode CreateOperator(MPI_Comm comm, const std::shared_ptr<Level> &level, VecType vtype, Mat *A);

static PetscErrorCode MatMult_VPatch(Mat A, Vec x, Vec y)
{
  OperatorContext *ctx;
  LevelOps<PetscScalar> *ops = nullptr;
  MemSpace s = MemSpace::Host;
  const PetscScalar *xa;
  PetscScalar *ya;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(SameSpace(x, y, &s));
  PetscCall(ctx->ops.get(s, &ops));
  VecRead xr(x, s);
  VecWrite yw(y, s, false);
  PetscCall(PetscLogEventBegin(events.mult, A, x, y, 0));
  PetscCall(xr.get(&xa));
  PetscCall(yw.get(&ya));
  PetscCall(ops->apply(xa, ya));
  PetscCall(yw.restore());
  PetscCall(xr.restore());
  PetscCall(PetscLogEventEnd(events.mult, A, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// r = b - A x (MatResidual: PCMG's level residuals, the PCs' Richardson steps) in one pass
// over r where the device kernels allow (LevelOps::residual), where A is as created
// (OperatorIsBase: MATSHELL's scalings and shifts, or a MATOP_MULT set later, would not reach
// this residual); else MatMult and VecAYPX. With norm (OperatorResidualNorm): also ||r||_2, in
// the residual's pass where that is one pass on one rank's device level (LevelOps::
// residual_in_one_pass), else by VecNorm. The pass sums unscaled squares, which underflow for
// entries below about 1e-154 and overflow above 1e154: a sum outside [1e-280, DBL_MAX] (0, Inf,
// NaN included) is taken again by VecNorm, whose sum scales.
static PetscErrorCode Residual(Mat A, Vec b, Vec x, Vec r, PetscReal *norm)
{
  OperatorContext *ctx;
  LevelOps<PetscScalar> *ops = nullptr;
  MemSpace s = MemSpace::Host, t = MemSpace::Host;
  PetscBool base;
  PetscMPIInt size;
  const PetscScalar *ba, *xa;
  PetscScalar *ra;
  PetscFunctionBegin;
  PetscCheck(r != x && r != b, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_IDN, "MatResidual: r must differ from b and x");
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(OperatorIsBase(A, &base));
  if (!base) {
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    if (norm) PetscCall(VecNorm(r, NORM_2, norm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SameSpace(x, r, &s));
  PetscCall(SameSpace(b, r, &t));
  PetscCall(ctx->ops.get(s, &ops));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  // (one rank: a norm summed in the pass needs no reduction, and no rank takes the other route)
  const bool summed = norm && size == 1 && ops->residual_in_one_pass();
  double sum = 0;
  VecRead br(b, s), xr(x, s);
  VecWrite rw(r, s, false);
  PetscCall(PetscLogEventBegin(events.residual, A, b, x, r));
  PetscCall(br.get(&ba));
  PetscCall(xr.get(&xa));
  PetscCall(rw.get(&ra));
  if (summed) PetscCall(ops->residual_one_pass(ba, xa, ra, &sum));
  else PetscCall(ops->residual(ba, xa, ra));
  PetscCall(rw.restore());
  PetscCall(xr.restore());
  PetscCall(br.restore());
  PetscCall(PetscLogEventEnd(events.residual, A, b, x, r));
  if (summed && sum >= 1e-280 && sum <= DBL_MAX) *norm = (PetscReal)std::sqrt(sum);
  else if (norm) PetscCall(VecNorm(r, NORM_2, norm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatResidual_VPatch(Mat A, Vec b, Vec x, Vec r) { return Residual(A, b, x, r, nullptr); }

static PetscErrorCode MatGetDiagonal_VPatch(Mat A, Vec d)
{
  OperatorContext *ctx;
  LevelOps<PetscScalar> *ops = nullptr;
  MemSpace s = MemSpace::Host;
  PetscScalar *da;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(LevelCheckVec(*ctx->ops.level(), d, "MatGetDiagonal"));
  PetscCall(VecMemSpace(d, &s));
  PetscCall(ctx->ops.get(s, &ops));
  VecWrite dw(d, s, false);
  PetscCall(PetscLogEventBegin(events.diagonal, A, d, 0, 0));
  PetscCall(dw.get(&da));
  PetscCall(ops->diagonal(da));
  PetscCall(dw.restore());
  PetscCall(PetscLogEventEnd(events.diagonal, A, d, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_VPatch(Mat A, PetscViewer viewer)
{
  OperatorContext *ctx;
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) {
    const Level &L = *ctx->ops.level();
    PetscCall(PetscViewerASCIIPrintf(viewer, "vpatch Q%" PetscInt_FMT " Laplacian, %" PetscInt_FMT "D, %" PetscInt_FMT " cells per direction (matrix-free, sum factorization)\n",
                                     L.degree, L.dim, L.cells));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_VPatch(Mat A)
{
  OperatorContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  delete ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A new operator on the same level (MATSHELL's own duplicate would share, and free twice, the
// context); of one changed by MATSHELL's scalings and shifts, an error (they would be lost).
static PetscErrorCode MatDuplicate_VPatch(Mat A, MatDuplicateOption, Mat *B)
{
  OperatorContext *ctx;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(ctx->shell.check(A, MatMult_VPatch, "MatDuplicate"));
  PetscCall(MatGetVecType(A, &vtype));
  PetscCall(CreateOperator(PetscObjectComm((PetscObject)A), ctx->ops.level(), vtype, B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The level's vectors (natural-order view and load, as the DM's), in the shell's vector type.
static PetscErrorCode MatCreateVecs_VPatch(Mat A, Vec *right, Vec *left)
{
  OperatorContext *ctx;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(MatGetVecType(A, &vtype));
  for (Vec *v : {right, left})
    if (v) PetscCall(LevelCreateGlobalVec(ctx->ops.level(), vtype, nullptr, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OperatorLevelForPC(Mat A, const char *who, std::shared_ptr<Level> *level)
{
  OperatorContext *ctx;
  MatType type;
  PetscFunctionBegin;
  PetscCall(LevelQuery((PetscObject)A, level));
  PetscCall(MatGetType(A, &type));
  PetscCheck(*level, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG,
             "%s needs the matrix-free operator of a vpatch DM (VPatchCreateOperator() or DMCreateMatrix() on a VPatchCreateDM() DM); got a matrix of type %s", who,
             type);
  PetscCheck((*level)->cells >= 2, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_INCOMP,
             "%s needs at least 2 cells per direction (a mesh with interior vertices); this level has %" PetscInt_FMT, who, (*level)->cells);
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(ctx->shell.check(A, MatMult_VPatch, who));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OperatorResidualNorm(Mat A, Vec b, Vec x, Vec r, PetscReal *norm)
{
  std::shared_ptr<Level> level;
  void (*residual)(void) = nullptr;
  PetscFunctionBegin;
  PetscCall(LevelQuery((PetscObject)A, &level));
  if (level) PetscCall(MatShellGetOperation(A, MATOP_RESIDUAL, &residual));
  if (residual == (void (*)(void))Guarded<MatResidual_VPatch>::call) PetscCall(Guarded<Residual>::call(A, b, x, r, norm));
  else {
    PetscCall(MatResidual(A, b, x, r));
    PetscCall(VecNorm(r, NORM_2, norm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OperatorIsBase(Mat A, PetscBool *base)
{
  std::shared_ptr<Level> level;
  void (*mult)(void) = nullptr;
  OperatorContext *ctx;
  PetscFunctionBegin;
  *base = PETSC_FALSE;
  PetscCall(LevelQuery((PetscObject)A, &level));
  if (!level) PetscFunctionReturn(PETSC_SUCCESS); // not a vpatch operator
  PetscCall(MatShellGetOperation(A, MATOP_MULT, &mult));
  if (mult != (void (*)(void))Guarded<MatMult_VPatch>::call) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(ctx->shell.is_base(A, MatMult_VPatch, base));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OperatorCheckSetUp(PC pc, const Level *set_up, const char *who)
{
  std::shared_ptr<Level> level;
  PetscFunctionBegin;
  if (pc->reusepreconditioner && set_up) PetscFunctionReturn(PETSC_SUCCESS); // what was set up, whatever the operator now is
  PetscCall(OperatorLevelForPC(pc->pmat, who, &level));
  PetscCheck(level.get() == set_up, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE,
             "%s is not set up for its operator: its last PCSetUp failed (PETSc sets a PC up again only once the operator changes)", who);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatSOR (PCSOR, PCMG's default level smoother): the operator is matrix-free and has no
// entries to sweep over; an error that names the smoothers that run on it (PETSc's own said
// "No method sor for Mat of type shell").
static PetscErrorCode MatSOR_VPatch(Mat A, Vec, PetscReal, MatSORType, PetscReal, PetscInt, PetscInt, Vec)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
          "SOR (PCSOR, also PCMG's default level smoother) needs an assembled matrix, and the vpatch operator is matrix-free: choose a smoother "
          "that runs on it, e.g. -mg_levels_pc_type vpatch (the vertex-patch smoother; with -pc_mg_distinct_smoothup also -mg_levels_up_pc_type) "
          "or jacobi, or -pc_type vpatch alone");
}

// Products with another MATSHELL (the grid transfers: PCMG's Galerkin coarse operators,
// -pc_mg_galerkin, form A P first): no entries to multiply; an error that says so (PETSc's own
// read "Unspecified symbolic phase for product AB with A shell, B shell", a PETSC_ERR_PLIB).
static PetscErrorCode ProductSymbolic_VPatch(Mat A, Mat, Mat, void **)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
          "The vpatch operator is matrix-free (MATSHELL, sum factorization) and forms no products with other matrix-free matrices, such as "
          "PCMG's Galerkin coarse operators (-pc_mg_galerkin): leave them to the vpatch DM, which makes every level's operator itself");
}
static PetscErrorCode ProductNumeric_VPatch(Mat A, Mat, Mat, void *) { return ProductSymbolic_VPatch(A, nullptr, nullptr, nullptr); }

static PetscErrorCode CreateOperator(MPI_Comm comm, const std::shared_ptr<Level> &level, VecType vtype, Mat *A)
{
  PetscFunctionBegin;
  const PetscInt n = (PetscInt)level->box.owned_points(), N = level->global_points();
  auto *ctx = new OperatorContext(level);
  PetscCall(MatCreateShell(comm, n, n, N, N, ctx, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, (void (*)(void))Guarded<MatMult_VPatch>::call));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_TRANSPOSE, (void (*)(void))Guarded<MatMult_VPatch>::call));
  PetscCall(MatShellSetOperation(*A, MATOP_RESIDUAL, (void (*)(void))Guarded<MatResidual_VPatch>::call));
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (void (*)(void))Guarded<MatGetDiagonal_VPatch>::call));
  PetscCall(MatShellSetOperation(*A, MATOP_VIEW, (void (*)(void))MatView_VPatch));
  PetscCall(MatShellSetOperation(*A, MATOP_DUPLICATE, (void (*)(void))Guarded<MatDuplicate_VPatch>::call));
  PetscCall(MatShellSetOperation(*A, MATOP_CREATE_VECS, (void (*)(void))MatCreateVecs_VPatch));
  PetscCall(MatShellSetOperation(*A, MATOP_DESTROY, (void (*)(void))Guarded<MatDestroy_VPatch>::call));
  PetscCall(MatShellSetOperation(*A, MATOP_SOR, (void (*)(void))MatSOR_VPatch));
  for (MatProductType t : {MATPRODUCT_AB, MATPRODUCT_PtAP})
    PetscCall(MatShellSetMatProductOperation(*A, t, ProductSymbolic_VPatch, ProductNumeric_VPatch, nullptr, MATSHELL, nullptr));
  if (vtype) PetscCall(MatShellSetVecType(*A, vtype));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscCall(LevelCompose((PetscObject)*A, level));
  PetscCall(PetscObjectSetName((PetscObject)*A, "vpatch_laplacian"));
  PetscCall(ctx->shell.created(*A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch

using namespace vpatch;

PetscErrorCode VPatchCreateOperator(DM dm, Mat *A)
{
  std::shared_ptr<Level> level;
  VecType vtype;
  PetscFunctionBegin;
  PetscCheck(dm && A, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "VPatchCreateOperator(): the %s is NULL", dm ? "Mat pointer" : "DM");
  PetscCall(VPatchInitializePackage());
  PetscCall(LevelQuery((PetscObject)dm, &level));
  PetscCheck(level, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "VPatchCreateOperator() needs a DM from VPatchCreateDM()");
  PetscCall(DMGetVecType(dm, &vtype));
  PetscCall(CreateOperator(PetscObjectComm((PetscObject)dm), level, vtype, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}
