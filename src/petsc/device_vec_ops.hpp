// Multi-vector operations of the levels' device vectors (LevelCreateGlobalVec): VecMDot and
// VecMAXPY in one pass over each vector per group of eight, where PETSc's VECCUDA (3.22)
// runs the VecMDot of its classical Gram-Schmidt at about a fifth of the memory bandwidth.
#pragma once
#include <petscvec.h>

namespace vpatch {
// Gives v (a VECSEQCUDA or VECMPICUDA vector; others are left alone) the plugin's VecMDot (and
// the local part VecMDotBegin uses) and VecMAXPY; VecDuplicate passes them on. VecBindToCPU
// reinstalls PETSc's own: after binding and unbinding, the vector uses PETSc's again. The
// global option -vpatch_device_vec_ops 0 leaves every vector with PETSc's.
PetscErrorCode VecUseDeviceMultiOps(Vec v);
} // namespace vpatch
