/* vpatch: vertex-patch multigrid smoothers for Q_k finite elements, as a PETSc plugin.

   A vpatch DM describes the Q_k discretization of the Poisson problem on [0,1]^d with
   N cells per direction; it coarsens by two, creates the matrix-free level operator
   (MATSHELL) and the Q_k grid transfers, so that -pc_type mg builds the hierarchy from
   the command line. PCVPATCH is the colorized multiplicative (or additive) vertex-patch
   smoother with fast-diagonalization local solvers. */
#pragma once
#include <petscdm.h>
#include <petscksp.h>

#define VPATCH_VERSION_MAJOR 0
#define VPATCH_VERSION_MINOR 9
#define VPATCH_VERSION_PATCH 0

#define PCVPATCH   "vpatch"
#define PCVPATCHMG "vpatchmg" /* multigrid cycle with vpatch smoothers in single (or double) precision */

typedef enum { PC_VPATCH_SWEEP_FORWARD, PC_VPATCH_SWEEP_BACKWARD, PC_VPATCH_SWEEP_SYMMETRIC } PCVPatchSweepType;
typedef enum { PC_VPATCH_MULTIPLICATIVE, PC_VPATCH_ADDITIVE } PCVPatchCompositeType;
typedef enum { PC_VPATCH_LOCAL_FDM, PC_VPATCH_LOCAL_DENSE } PCVPatchLocalSolverType;
PETSC_EXTERN const char *const PCVPatchSweepTypes[];
PETSC_EXTERN const char *const PCVPatchCompositeTypes[];
PETSC_EXTERN const char *const PCVPatchLocalSolverTypes[];

/* Registration: PCVPATCH and the log events. Called by PetscDLLibraryRegister_vpatch
   (for -dll_append) and by VPatchCreateDM; applications may call it explicitly. */
PETSC_EXTERN PetscErrorCode VPatchInitializePackage(void);

/* The discretization. */
PETSC_EXTERN PetscErrorCode VPatchCreateDM(MPI_Comm comm, PetscInt dim, PetscInt degree, PetscInt cells, DM *dm);
PETSC_EXTERN PetscErrorCode VPatchDMGetInfo(DM dm, PetscInt *dim, PetscInt *degree, PetscInt *cells);
PETSC_EXTERN PetscErrorCode VPatchDMGetDA(DM dm, DM *da);
PETSC_EXTERN PetscErrorCode VPatchIsVPatchDM(DM dm, PetscBool *flg);
PETSC_EXTERN PetscErrorCode VPatchCreateOperator(DM dm, Mat *A);
/* The prolongation of multigrid corrections, which vanish on the boundary: boundary values
   are not transferred (interpolate a function with nonzero boundary values on the fine DM by
   VPatchInterpolateFunction). */
PETSC_EXTERN PetscErrorCode VPatchCreateInterpolation(DM coarse, DM fine, Mat *P);

/* The paper's test problem u = prod_i sin(pi x_i): right-hand side and L2 error (of the
   Q_k function with u's coefficients, boundary points included). */
PETSC_EXTERN PetscErrorCode VPatchFormSineRHS(DM dm, Vec b);
PETSC_EXTERN PetscErrorCode VPatchComputeSineL2Error(DM dm, Vec u, PetscReal *error);
/* f = 1, the right-hand side of the paper's iteration-count tables. */
PETSC_EXTERN PetscErrorCode VPatchFormConstantRHS(DM dm, Vec b);

/* A user's problem -Laplace u = f on [0,1]^dim, u = g on the boundary. A point function in
   the form DMPlex's DMProjectFunction and DMComputeL2Diff take: writes the value at the point
   x (dim coordinates; Nc = 1, time = 0) to u[0]. */
typedef PetscErrorCode (*VPatchPointFunction)(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx);
/* b = the right-hand side of the operator's system (DMCreateMatrix): the integrals of f phi_i
   (Gauss rule of k+1 points per direction, as the operator's) less the coupling to the
   boundary values in the interior rows, g at the boundary points (identity rows). f or g
   NULL: zero. ctx is passed to both. These three are collective on the DM: an error that a
   point function returns on one rank is returned on every rank. */
PETSC_EXTERN PetscErrorCode VPatchFormRHS(DM dm, VPatchPointFunction f, VPatchPointFunction g, void *ctx, Vec b);
/* v = the Q_k interpolant of u: its values at the support points (e.g. an initial guess). */
PETSC_EXTERN PetscErrorCode VPatchInterpolateFunction(DM dm, VPatchPointFunction u, void *ctx, Vec v);
/* diff = || u_h - exact ||_L2 for the Q_k function with coefficients u (exact NULL: the
   norm of u_h), by the Gauss rule of k+1 points per direction. */
PETSC_EXTERN PetscErrorCode VPatchComputeL2Diff(DM dm, Vec u, VPatchPointFunction exact, void *ctx, PetscReal *diff);

/* The smoother. */
PETSC_EXTERN PetscErrorCode PCVPatchSetSweepType(PC pc, PCVPatchSweepType type);
PETSC_EXTERN PetscErrorCode PCVPatchSetCompositeType(PC pc, PCVPatchCompositeType type);
PETSC_EXTERN PetscErrorCode PCVPatchSetDamping(PC pc, PetscReal damping);
PETSC_EXTERN PetscErrorCode PCVPatchSetLocalSolverType(PC pc, PCVPatchLocalSolverType type);

/* PCVPATCHMG: the precision of its cycle (-pc_vpatchmg_precision), the number of levels
   (-pc_vpatchmg_levels; PETSC_DECIDE or PETSC_DEFAULT: down to 2 cells per direction or as
   far as the rank partition allows), pre- and post-smoothing sweeps (-pc_vpatchmg_smooth_its), the cycle
   type (-pc_vpatchmg_cycle_type; PC_MG_CYCLE_V or PC_MG_CYCLE_W) and the symmetric cycle
   (-pc_vpatchmg_symmetric_cycle: post-smoothing by the transposed sweep, a symmetric
   preconditioner for CG; off by default). The setters do nothing on other PC types; the
   smoother takes PCVPatchSet*. */
typedef enum { PC_VPATCHMG_SINGLE, PC_VPATCHMG_DOUBLE } PCVPatchMGPrecision;
PETSC_EXTERN const char *const PCVPatchMGPrecisions[];
PETSC_EXTERN PetscErrorCode PCVPatchMGSetPrecision(PC pc, PCVPatchMGPrecision precision);
PETSC_EXTERN PetscErrorCode PCVPatchMGGetPrecision(PC pc, PCVPatchMGPrecision *precision);
PETSC_EXTERN PetscErrorCode PCVPatchMGSetLevels(PC pc, PetscInt levels);
PETSC_EXTERN PetscErrorCode PCVPatchMGGetLevels(PC pc, PetscInt *levels); /* sets the PC up */
PETSC_EXTERN PetscErrorCode PCVPatchMGSetNumberSmooth(PC pc, PetscInt sweeps);
PETSC_EXTERN PetscErrorCode PCVPatchMGSetCycleType(PC pc, PCMGCycleType type);
PETSC_EXTERN PetscErrorCode PCVPatchMGSetSymmetricCycle(PC pc, PetscBool on);
/* The multigrid cycle of PCVPATCHMG as full multigrid (nested iteration, paper Algorithm
   2.2): y = an approximate solution of A y = b, for use as an initial guess. With nonzero
   Dirichlet values (b's boundary rows, VPatchFormRHS with g) it runs on the difference to a
   smooth lift of them (the transfinite interpolant of the boundary faces), which vanishes on
   the boundary as the nested iteration's coarse solutions do, and adds the lift back. */
PETSC_EXTERN PetscErrorCode PCVPatchMGApplyFull(PC pc, Vec b, Vec y);
/* The same as a KSP's initial guess (-ksp_guess_type vpatchfmg, or KSPGetGuess and
   KSPGuessSetType): each KSPSolve starts from the full multigrid of the KSP's PC, which must be
   PCVPATCHMG; with KSPRICHARDSON this is paper Algorithm 2.2. */
#define KSPGUESSVPATCHFMG "vpatchfmg"
