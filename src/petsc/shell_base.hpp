// Whether a vpatch MATSHELL still is the operator its kernels apply. MATSHELL lets a program
// scale, shift, diagonally scale, add to or zero rows of any shell (MatScale, MatShift,
// MatDiagonalScale, MatAXPY, MatZeroRows...: applied around the shell's multiply; a final
// MatAssemblyEnd undoes them), while the smoothers, the transfers' fused adds and MatDuplicate
// know only the kernels' operator. The shell's object state unchanged since it was last found
// unmodified proves it is; else one product with a random vector against the kernels' multiply
// decides.
#pragma once
#include <petscksp.h>
#include <petsc/private/petscimpl.h> // PetscObjectStateGet
#include <memory>

namespace vpatch {

struct Level;

struct ShellBase {
  PetscObjectState state = -1;   // the shell's state when last found unmodified
  PetscObjectState changed = -1; // and when last found modified
  // base: whether A (a MATSHELL whose own multiply is mult) applies mult alone
  PetscErrorCode is_base(Mat A, PetscErrorCode (*mult)(Mat, Vec, Vec), PetscBool *base);
  // the same as an error naming who needs the unmodified shell
  PetscErrorCode check(Mat A, PetscErrorCode (*mult)(Mat, Vec, Vec), const char *who);
  PetscErrorCode created(Mat A) { return PetscObjectStateGet((PetscObject)A, &state); }
};

// What a PC (who) needs of its operator A, checked in PCSetUp: the operator of
// VPatchCreateOperator() on a level of at least 2 cells per direction, unmodified
// (ShellBase::check); its level (mat_operator.cxx).
PetscErrorCode OperatorLevelForPC(Mat A, const char *who, std::shared_ptr<Level> *level);
// The same for the PC's operator before each application of what it set up for level set_up
// (null: nothing): PETSc records the operator's state before the PC's setup runs, so after a
// setup that failed on these checks, a second solve would skip PCSetUp and apply what an
// earlier setup left. With KSPSetReusePreconditioner only that it was set up.
PetscErrorCode OperatorCheckSetUp(PC pc, const Level *set_up, const char *who);
// Whether A is the operator of VPatchCreateOperator() as created: its kernels alone give its
// product (not changed by MATSHELL's scalings, nor by a MATOP_MULT set after creation).
PetscErrorCode OperatorIsBase(Mat A, PetscBool *base);
// r = b - A x and norm = ||r||_2 (the Richardson tests of PCVPATCH and PCVPATCHMG): for the
// operator of VPatchCreateOperator() its MatResidual with the norm summed in the same pass
// where the device kernel allows (one rank), else MatResidual and VecNorm.
PetscErrorCode OperatorResidualNorm(Mat A, Vec b, Vec x, Vec r, PetscReal *norm);

} // namespace vpatch
