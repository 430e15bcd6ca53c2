// The Q_k grid transfer as a MATSHELL (fine rows, coarse columns): MatMult interpolates
// the coarse function at the fine support points, MatMultTranspose is its transpose
// (the restriction PCMG applies with MatRestrict).
#include "../../include/vpatch.h"
#include "logging.hpp"
#include "shell_base.hpp"
#include "vec_access.hpp"

namespace vpatch {

struct TransferContext {
  TransferContext(std::shared_ptr<Level> c, std::shared_ptr<Level> f) : coarse(std::move(c)), fine(std::move(f)) {}
  LevelOpsCache<PetscScalar> coarse, fine;
  std::unique_ptr<TransferOps<PetscScalar>> host, device;
  Vec work = nullptr, fine_work = nullptr; // for MatMultTransposeAdd, and MatMultAdd of a changed shell
  ShellBase shell;

  PetscErrorCode get(MemSpace s, TransferOps<PetscScalar> **t)
  {
    LevelOps<PetscScalar> *c = nullptr, *f = nullptr;
    PetscFunctionBegin;
    PetscCall(coarse.get(s, &c));
    PetscCall(fine.get(s, &f));
    auto &slot = s == MemSpace::Host ? host : device;
    try {
      if (!slot) slot = std::make_unique<TransferOps<PetscScalar>>(*c, *f);
    } catch (const std::exception &e) {
      SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: %s", e.what());
    }
    *t = slot.get();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
};

static PetscErrorCode Prolongate(Mat P, Vec xc, Vec xf, bool add)
{
  TransferContext *ctx;
  TransferOps<PetscScalar> *t = nullptr;
  MemSpace s = MemSpace::Host;
  const PetscScalar *ca;
  PetscScalar *fa;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, &ctx));
  PetscCall(SameSpace(xf, xc, &s));
  PetscCall(ctx->get(s, &t));
  PetscCall(PetscLogEventBegin(events.prolong, P, xc, xf, 0));
  VecRead cr(xc, s);
  VecWrite fw(xf, s, add);
  PetscCall(cr.get(&ca));
  PetscCall(fw.get(&fa));
  PetscCall(t->prolongate(ca, fa, add));
  PetscCall(fw.restore());
  PetscCall(cr.restore());
  PetscCall(PetscLogEventEnd(events.prolong, P, xc, xf, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_Transfer(Mat P, Vec xc, Vec xf) { return Prolongate(P, xc, xf, false); }

// z = y + P xc in one pass over z, where MATSHELL's scalings and shifts (which its MultAdd
// does not apply when set by the user) have not changed P; else through MatMult.
static PetscErrorCode MatMultAdd_Transfer(Mat P, Vec xc, Vec y, Vec z)
{
  TransferContext *ctx;
  PetscBool base;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, &ctx));
  PetscCall(ctx->shell.is_base(P, MatMult_Transfer, &base));
  if (!base) {
    if (!ctx->fine_work) PetscCall(VecDuplicate(z, &ctx->fine_work));
    PetscCall(MatMult(P, xc, ctx->fine_work));
    if (y != z) PetscCall(VecCopy(y, z));
    PetscCall(VecAXPY(z, 1.0, ctx->fine_work));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (y != z) PetscCall(VecCopy(y, z));
  PetscCall(Prolongate(P, xc, z, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_Transfer(Mat P, Vec xf, Vec xc)
{
  TransferContext *ctx;
  TransferOps<PetscScalar> *t = nullptr;
  MemSpace s = MemSpace::Host;
  const PetscScalar *fa;
  PetscScalar *ca;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, &ctx));
  PetscCall(SameSpace(xc, xf, &s));
  PetscCall(ctx->get(s, &t));
  PetscCall(PetscLogEventBegin(events.restrict_, P, xf, xc, 0));
  VecRead fr(xf, s);
  VecWrite cw(xc, s, false);
  PetscCall(fr.get(&fa));
  PetscCall(cw.get(&ca));
  PetscCall(t->restrict(fa, ca));
  PetscCall(cw.restore());
  PetscCall(fr.restore());
  PetscCall(PetscLogEventEnd(events.restrict_, P, xf, xc, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_Transfer(Mat P, Vec xf, Vec y, Vec z)
{
  TransferContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, &ctx));
  if (!ctx->work) PetscCall(VecDuplicate(y, &ctx->work));
  PetscCall(MatMultTranspose(P, xf, ctx->work)); // with MATSHELL's scalings and shifts, if any
  if (y != z) PetscCall(VecCopy(y, z));
  PetscCall(VecAXPY(z, 1.0, ctx->work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_Transfer(Mat P)
{
  TransferContext *ctx;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, &ctx));
  PetscCall(VecDestroy(&ctx->work));
  PetscCall(VecDestroy(&ctx->fine_work));
  delete ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateTransfer(MPI_Comm comm, const std::shared_ptr<Level> &c, const std::shared_ptr<Level> &f, VecType vtype, Mat *P);

// A new transfer between the same levels (MATSHELL's own duplicate would share, and free
// twice, the context); of one changed by MATSHELL's scalings and shifts, an error.
static PetscErrorCode MatDuplicate_Transfer(Mat P, MatDuplicateOption, Mat *Q)
{
  TransferContext *ctx;
  VecType vtype;
  PetscFunctionBegin;
  PetscCall(MatShellGetContext(P, &ctx));
  PetscCall(ctx->shell.check(P, MatMult_Transfer, "MatDuplicate"));
  PetscCall(MatGetVecType(P, &vtype));
  PetscCall(CreateTransfer(PetscObjectComm((PetscObject)P), ctx->coarse.level(), ctx->fine.level(), vtype, Q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateTransfer(MPI_Comm comm, const std::shared_ptr<Level> &c, const std::shared_ptr<Level> &f, VecType vtype, Mat *P)
{
  PetscFunctionBegin;
  auto *ctx = new TransferContext(c, f);
  PetscCall(MatCreateShell(comm, (PetscInt)f->box.owned_points(), (PetscInt)c->box.owned_points(), f->global_points(), c->global_points(), ctx, P));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT, (void (*)(void))Guarded<MatMult_Transfer>::call));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_ADD, (void (*)(void))Guarded<MatMultAdd_Transfer>::call));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE, (void (*)(void))Guarded<MatMultTranspose_Transfer>::call));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))Guarded<MatMultTransposeAdd_Transfer>::call));
  PetscCall(MatShellSetOperation(*P, MATOP_DUPLICATE, (void (*)(void))Guarded<MatDuplicate_Transfer>::call));
  PetscCall(MatShellSetOperation(*P, MATOP_DESTROY, (void (*)(void))Guarded<MatDestroy_Transfer>::call));
  if (vtype) PetscCall(MatShellSetVecType(*P, vtype));
  PetscCall(PetscObjectSetName((PetscObject)*P, "vpatch_interpolation"));
  PetscCall(ctx->shell.created(*P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch

using namespace vpatch;

PetscErrorCode VPatchCreateInterpolation(DM dmc, DM dmf, Mat *P)
{
  std::shared_ptr<Level> c, f;
  VecType vtype;
  PetscFunctionBegin;
  PetscCheck(dmc && dmf && P, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "VPatchCreateInterpolation(): the %s is NULL",
             !dmc ? "coarse DM" : !dmf ? "fine DM" : "Mat pointer");
  MPI_Comm comm = PetscObjectComm((PetscObject)dmf);
  PetscCall(LevelQuery((PetscObject)dmc, &c));
  PetscCall(LevelQuery((PetscObject)dmf, &f));
  PetscCheck(c && f, comm, PETSC_ERR_ARG_WRONG, "VPatchCreateInterpolation() needs two DMs from VPatchCreateDM()");
  PetscCheck(c->dim == f->dim && c->degree == f->degree && 2 * c->cells == f->cells, comm, PETSC_ERR_ARG_INCOMP,
             "vpatch interpolation needs the same dim and degree and twice the cells on the fine level (got %" PetscInt_FMT " and %" PetscInt_FMT " cells)",
             c->cells, f->cells);
  PetscMPIInt nested = 1; // decided on every rank (CreateTransfer is collective)
  for (int d = 0; d < c->dim; ++d) nested = nested && 2 * c->box.cs[d] == f->box.cs[d] && 2 * c->box.ce[d] == f->box.ce[d];
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nested, 1, MPI_INT, MPI_LAND, comm));
  PetscCheck(nested, comm, PETSC_ERR_ARG_INCOMP, "vpatch interpolation needs nested partitions: the coarse DM must come from DMCoarsen() of the fine one");
  PetscCall(DMGetVecType(dmf, &vtype));
  PetscCall(CreateTransfer(comm, c, f, vtype, P));
  PetscFunctionReturn(PETSC_SUCCESS);
}
