// A work vector kept by its holder between calls (a PC's Richardson correction, the full
// multigrid's lift): made like the vector given where it is missing or of another type or
// size, destroyed with the holder or by reset(). Kept rather than made and destroyed around
// the work, so that an error in between (a solve the program catches and retries) leaves
// nothing behind: the vector would hold its DM, and with it the levels and their vectors.
#pragma once
#include <petscvec.h>

namespace vpatch {

class WorkVec {
public:
  WorkVec() = default;
  ~WorkVec() { (void)VecDestroy(&v_); }
  WorkVec(const WorkVec &) = delete;
  WorkVec &operator=(const WorkVec &) = delete;

  // *w: the work vector, of x's type and layout.
  PetscErrorCode like(Vec x, Vec *w)
  {
    PetscBool same = PETSC_FALSE;
    PetscFunctionBegin;
    if (v_) {
      VecType tx, tv;
      PetscInt nx, nv, Nx, Nv;
      PetscCall(VecGetType(x, &tx));
      PetscCall(VecGetType(v_, &tv));
      PetscCall(PetscStrcmp(tx, tv, &same));
      PetscCall(VecGetLocalSize(x, &nx));
      PetscCall(VecGetLocalSize(v_, &nv));
      PetscCall(VecGetSize(x, &Nx));
      PetscCall(VecGetSize(v_, &Nv));
      same = (PetscBool)(same && nx == nv && Nx == Nv);
    }
    if (!same) {
      PetscCall(VecDestroy(&v_));
      PetscCall(VecDuplicate(x, &v_));
    }
    *w = v_;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscErrorCode reset() { return VecDestroy(&v_); }

private:
  Vec v_ = nullptr;
};

} // namespace vpatch
