#include "shell_base.hpp"

namespace vpatch {

PetscErrorCode ShellBase::is_base(Mat A, PetscErrorCode (*mult)(Mat, Vec, Vec), PetscBool *base)
{
  PetscObjectState now;
  Vec x, y, z;
  PetscRandom rand;
  PetscReal diff, norm;
  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, &now));
  *base = (PetscBool)(now == state);
  if (*base || now == changed) PetscFunctionReturn(0);
  PetscCall(PetscInfo(A, "vpatch: the shell's state changed since it was last found unmodified (MATSHELL's scalings, an assembly, MatDuplicate); comparing its product with the kernels'\n"));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)A), &rand));
  PetscCall(VecSetRandom(x, rand));
  PetscCall(PetscRandomDestroy(&rand));
  PetscCall(MatMult(A, x, y)); // with MATSHELL's changes
  PetscCall(mult(A, x, z));    // the kernels' alone
  PetscCall(VecNorm(z, NORM_2, &norm));
  PetscCall(VecAXPY(z, -1.0, y));
  PetscCall(VecNorm(z, NORM_2, &diff));
  *base = (PetscBool)(diff <= 1e-14 * norm);
  if (*base) state = now;
  else changed = now;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(0);
}

PetscErrorCode ShellBase::check(Mat A, PetscErrorCode (*mult)(Mat, Vec, Vec), const char *who)
{
  PetscBool base;
  PetscFunctionBegin;
  PetscCall(is_base(A, mult, &base));
  PetscCheck(base, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
             "%s works with the matrix-free %s as created: it was changed by MatScale, MatShift, MatDiagonalScale, MatAXPY or MatZeroRows (a final "
             "MatAssemblyEnd undoes them)",
             who, ((PetscObject)A)->name ? ((PetscObject)A)->name : "shell");
  PetscFunctionReturn(0);
}

} // namespace vpatch
