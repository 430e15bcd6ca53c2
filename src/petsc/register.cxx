// Registration of the plugin: PC types and log events, for applications that call
// VPatchInitializePackage() and for -dll_append (PetscDLLibraryRegister_vpatch).
#include "../../include/vpatch.h"
#include "logging.hpp"
#include "vec_access.hpp"
#if defined(VPATCH_HAVE_CUDA)
  #include "../cuda/vector_ops_cuda.hpp"
  #include <petscdevice.h>
#endif

PETSC_EXTERN PetscErrorCode PCCreate_VPatch(PC);
PETSC_EXTERN PetscErrorCode PCCreate_VPatchMG(PC);
PETSC_EXTERN PetscErrorCode KSPGuessCreate_VPatchFMG(KSPGuess);

namespace vpatch {
Events events;
PetscClassId classid;
static PetscBool initialized = PETSC_FALSE;

static PetscErrorCode Finalize(void)
{
  initialized = PETSC_FALSE;
#if defined(VPATCH_HAVE_CUDA) && !defined(PETSC_USE_COMPLEX)
  cuda::release_multi_scratch(); // device_vec_ops
#endif
  return PETSC_SUCCESS;
}

PetscErrorCode CurrentStream(MemSpace s, void **stream)
{
  PetscFunctionBegin;
  *stream = nullptr;
#if defined(VPATCH_HAVE_CUDA)
  if (s == MemSpace::Device) {
    PetscDeviceContext dctx;
    PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
    PetscCall(PetscDeviceContextGetStreamHandle(dctx, stream));
    *stream = *(cudaStream_t *)*stream;
  }
#else
  (void)s;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
} // namespace vpatch

using namespace vpatch;

PetscErrorCode VPatchInitializePackage(void)
{
  PetscFunctionBegin;
  if (initialized) PetscFunctionReturn(PETSC_SUCCESS);
  initialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("VPatch", &classid));
  PetscCall(PetscLogEventRegister("VPatchMult", classid, &events.mult));
  PetscCall(PetscLogEventRegister("VPatchResidual", classid, &events.residual));
  PetscCall(PetscLogEventRegister("VPatchDiagonal", classid, &events.diagonal));
  PetscCall(PetscLogEventRegister("VPatchSmooth", classid, &events.smooth));
  PetscCall(PetscLogEventRegister("VPatchProlong", classid, &events.prolong));
  PetscCall(PetscLogEventRegister("VPatchRestrict", classid, &events.restrict_));
  PetscCall(PetscLogEventRegister("VPatchSetup", classid, &events.setup));
  PetscCall(PetscLogEventRegister("VPatchConvert", classid, &events.convert));
  PetscCall(PetscLogEventRegister("VPatchPeerExch", classid, &events.peer));
  PetscCall(PetscLogEventRegister("VPatchPeerSetup", classid, &events.peer_setup));
  PetscCall(PetscLogEventRegister("VPatchLevelSetup", classid, &events.level_setup));
  PetscCall(PetscLogEventRegister("VPatchFullMG", classid, &events.full_mg));
  PetscCall(PetscLogEventRegister("VPatchVecMDot", classid, &events.vec_mdot));
  PetscCall(PetscLogEventRegister("VPatchVecMAXPY", classid, &events.vec_maxpy));
  PetscCall(PetscLogEventRegister("VPatchLift", classid, &events.lift));
  PetscCall(PCRegister(PCVPATCH, PCCreate_VPatch));
  PetscCall(PCRegister(PCVPATCHMG, PCCreate_VPatchMG));
  PetscCall(KSPGuessRegister(KSPGUESSVPATCHFMG, KSPGuessCreate_VPatchFMG));
  PetscCall(PetscRegisterFinalize(Finalize));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_vpatch(void)
{
  PetscFunctionBegin;
  PetscCall(VPatchInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}
