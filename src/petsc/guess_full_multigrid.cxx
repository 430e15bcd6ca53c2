// KSPGuess "vpatchfmg": the initial guess of a KSPSolve by full multigrid of the KSP's own
// PCVPATCHMG (PCVPatchMGApplyFull; the nested iteration of paper Algorithm 2.2), so that
// `-ksp_type richardson -pc_type vpatchmg -ksp_guess_type vpatchfmg` runs the paper's
// Algorithm 2.2 from the options database alone. KSPSolve forms the guess after its setup,
// whatever the KSP's initial-guess setting, and iterates from it (the example's -fmg).
#include "../../include/vpatch.h"
#include "compat.hpp"
#include <petsc/private/kspimpl.h> // guess->ksp, guess->ops

static PetscErrorCode KSPGuessFormGuess_VPatchFMG(KSPGuess guess, Vec b, Vec x)
{
  PC pc;
  PCType type;
  PetscBool vpatchmg;
  PetscFunctionBegin;
  PetscCheck(guess->ksp, PetscObjectComm((PetscObject)guess), PETSC_ERR_ARG_WRONGSTATE, "KSPGuess %s: no KSP (set it with KSPSetGuess)", KSPGUESSVPATCHFMG);
  PetscCall(KSPGetPC(guess->ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCVPATCHMG, &vpatchmg));
  PetscCall(PCGetType(pc, &type));
  PetscCheck(vpatchmg, PetscObjectComm((PetscObject)guess), PETSC_ERR_ARG_INCOMP,
             "KSPGuess %s runs the full multigrid of the KSP's PC, which must be %s (-pc_type %s), not %s", KSPGUESSVPATCHFMG, PCVPATCHMG, PCVPATCHMG,
             type ? type : "unset");
  PetscBool preonly; // (PETSc 3.18's KSPPREONLY overwrites the guess without a word, 3.22's refuses it)
  PetscCall(PetscObjectTypeCompare((PetscObject)guess->ksp, KSPPREONLY, &preonly));
  PetscCheck(!preonly, PetscObjectComm((PetscObject)guess), PETSC_ERR_ARG_INCOMP,
             "KSPGuess %s: a KSP of type %s applies the PC once and discards the initial guess; for full multigrid alone call PCVPatchMGApplyFull(), to "
             "iterate from it use e.g. -ksp_type richardson",
             KSPGUESSVPATCHFMG, KSPPREONLY);
  PetscCall(PCVPatchMGApplyFull(pc, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGuessView_VPatchFMG(KSPGuess, PetscViewer viewer)
{
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerASCIIPrintf(viewer, "full multigrid of the KSP's %s (nested iteration, paper Algorithm 2.2)\n", PCVPATCHMG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode KSPGuessCreate_VPatchFMG(KSPGuess guess)
{
  PetscFunctionBegin;
  guess->ops->formguess = KSPGuessFormGuess_VPatchFMG;
  guess->ops->view = KSPGuessView_VPatchFMG;
  PetscFunctionReturn(PETSC_SUCCESS);
}
