// Raw owned arrays of PETSc vectors in the memory space where the vector lives: host
// arrays for standard vectors, device arrays for VECCUDA (when built with CUDA).
#pragma once
#include "level_ops.hpp"
#include <petscvec.h>
#if defined(VPATCH_HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

namespace vpatch {

inline PetscErrorCode VecMemSpace(Vec v, MemSpace *space)
{
  PetscBool cuda = PETSC_FALSE;
  PetscFunctionBegin;
#if defined(VPATCH_HAVE_CUDA)
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, &cuda, VECSEQCUDA, VECMPICUDA, ""));
#endif
  *space = cuda ? MemSpace::Device : MemSpace::Host;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The memory space of x, which y must share (an operator's input and output; PETSc's debug
// checks of the array types are off in optimized builds).
inline PetscErrorCode SameSpace(Vec x, Vec y, MemSpace *s)
{
  MemSpace t = MemSpace::Host;
  PetscFunctionBegin;
  PetscCall(VecMemSpace(x, s));
  PetscCall(VecMemSpace(y, &t));
  PetscCheck(*s == t, PetscObjectComm((PetscObject)x), PETSC_ERR_ARG_INCOMP,
             "vpatch: input and output vectors must both live on the host or both on the device");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Scoped read or write access to a Vec's owned array in a memory space: restored by restore(),
// or by the destructor where an error returned early.
class VecRead {
public:
  VecRead(Vec v, MemSpace s) : v_(v), s_(s) {}
  VecRead(const VecRead &) = delete;
  VecRead &operator=(const VecRead &) = delete;
  ~VecRead()
  {
    if (held_) (void)restore();
  }
  PetscErrorCode get(const PetscScalar **a)
  {
    PetscFunctionBegin;
#if defined(VPATCH_HAVE_CUDA)
    if (s_ == MemSpace::Device) {
      PetscCall(VecCUDAGetArrayRead(v_, a));
      a_ = *a;
      held_ = true;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
#endif
    PetscCall(VecGetArrayRead(v_, a));
    a_ = *a;
    held_ = true;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscErrorCode restore()
  {
    const PetscScalar *a = a_;
    PetscFunctionBegin;
    a_ = nullptr;
    held_ = false;
#if defined(VPATCH_HAVE_CUDA)
    if (s_ == MemSpace::Device) {
      PetscCall(VecCUDARestoreArrayRead(v_, &a));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
#endif
    PetscCall(VecRestoreArrayRead(v_, &a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

private:
  Vec v_;
  MemSpace s_;
  const PetscScalar *a_ = nullptr;
  bool held_ = false; // between get and restore (a_ may be null for an empty local array)
};

class VecWrite {
public:
  // mode: 'w' (all entries overwritten) or 'rw' (read and update)
  VecWrite(Vec v, MemSpace s, bool read) : v_(v), s_(s), read_(read) {}
  VecWrite(const VecWrite &) = delete;
  VecWrite &operator=(const VecWrite &) = delete;
  ~VecWrite()
  {
    if (held_) (void)restore();
  }
  PetscErrorCode get(PetscScalar **a)
  {
    PetscFunctionBegin;
#if defined(VPATCH_HAVE_CUDA)
    if (s_ == MemSpace::Device) {
      if (read_) PetscCall(VecCUDAGetArray(v_, a));
      else PetscCall(VecCUDAGetArrayWrite(v_, a));
      a_ = *a;
      held_ = true;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
#endif
    if (read_) PetscCall(VecGetArray(v_, a));
    else PetscCall(VecGetArrayWrite(v_, a));
    a_ = *a;
    held_ = true;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscErrorCode restore()
  {
    PetscScalar *a = a_;
    PetscFunctionBegin;
    a_ = nullptr;
    held_ = false;
#if defined(VPATCH_HAVE_CUDA)
    if (s_ == MemSpace::Device) {
      if (read_) PetscCall(VecCUDARestoreArray(v_, &a));
      else PetscCall(VecCUDARestoreArrayWrite(v_, &a));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
#endif
    if (read_) PetscCall(VecRestoreArray(v_, &a));
    else PetscCall(VecRestoreArrayWrite(v_, &a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

private:
  Vec v_;
  MemSpace s_;
  bool read_;
  PetscScalar *a_ = nullptr;
  bool held_ = false; // between get and restore (a_ may be null for an empty local array)
};

// Where the vectors of an operator live (MatShellSetVecType / MatCreateVecs).
inline PetscErrorCode MatMemSpace(Mat A, MemSpace *space)
{
  Vec v;
  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &v, nullptr));
  PetscCall(VecMemSpace(v, space));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The stream PETSc enqueues its device work on (nullptr on the host).
PetscErrorCode CurrentStream(MemSpace s, void **stream);

// Level operations for a memory space, created on first use.
template <typename Number>
class LevelOpsCache {
public:
  explicit LevelOpsCache(std::shared_ptr<Level> level, bool dense = false) : level_(std::move(level)), dense_(dense) {}
  PetscErrorCode get(MemSpace s, LevelOps<Number> **ops)
  {
    PetscFunctionBegin;
    auto &slot = s == MemSpace::Host ? host_ : device_;
    try {
      if (!slot) slot = std::make_unique<LevelOps<Number>>(level_, s, dense_);
    } catch (const std::exception &e) {
      SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: %s", e.what());
    }
    void *stream;
    PetscCall(CurrentStream(s, &stream));
    slot->set_stream(stream);
    *ops = slot.get();
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const std::shared_ptr<Level> &level() const { return level_; }
  bool dense() const { return dense_; }

private:
  std::shared_ptr<Level> level_;
  bool dense_;
  std::unique_ptr<LevelOps<Number>> host_, device_;
};

} // namespace vpatch
