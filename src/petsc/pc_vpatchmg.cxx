// PCVPATCHMG: a whole multigrid cycle with vpatch smoothers in a chosen precision (single
// by default): the residual is converted to float, the float cycle runs over the same
// hierarchy PCMG would build from the vpatch DM (float operator, smoother, transfers,
// coarse solve: exact on 2 cells per direction), and the correction is converted back.
// Inside a double Krylov method this is the paper's mixed-precision solver (Table 7).
#include "../../include/vpatch.h"
#include "../cuda/vector_ops_cuda.hpp"
#include "compat.hpp"
#include "dirichlet_lift.hpp"
#include "hierarchy.hpp"
#include "mixed_fmg.hpp"
#include "richardson_test.hpp"
#include "logging.hpp"
#include "shell_base.hpp"
#include "smoother_options.hpp"
#include "work_vec.hpp"
#include "vec_access.hpp"
#include <petsc/private/pcimpl.h>
#include <optional>
#include <type_traits>

const char *const PCVPatchMGPrecisions[] = {"single", "double", "PCVPatchMGPrecision", "PC_VPATCHMG_", nullptr};

namespace vpatch {

struct PC_VPatchMG {
  SmootherOptions smoother;
  PetscInt levels = PETSC_DECIDE; // down to the coarsest mesh the partition allows
  PetscInt smooth_its = 1;
  PCMGCycleType cycle = PC_MG_CYCLE_V;
  PCVPatchMGPrecision precision = PC_VPATCHMG_SINGLE;
  PetscBool fmg_double = PETSC_TRUE; // single-precision full multigrid: level solutions in double (MixedFMG)
  PetscBool graphs = PETSC_TRUE;     // CUDA graphs of the small levels' cycles and full multigrid (Hierarchy::use_graphs)
  PetscBool allow_inflexible = PETSC_FALSE; // single precision under a Krylov method that needs a linear PC (PCPreSolve_VPatchMG)
  PetscInt agglomerate = -1;         // on several ranks, the levels of at most this many points on rank 0 alone (-1: by memory space)
  // post-smoothing by the pre-smoother's transpose (forward sweep before, backward after the
  // coarse correction): a symmetric cycle, as CG needs, at the cost of the plain one
  PetscBool symmetric_cycle = PETSC_FALSE;
  std::vector<std::shared_ptr<Level>> mesh; // null on ranks other than 0 for the agglomerated levels
  std::shared_ptr<Agglomeration> agg;
  std::unique_ptr<Hierarchy<float>> single;
  std::unique_ptr<Hierarchy<double>> dbl;
  std::unique_ptr<MixedFMG> fmg; // created on the first full multigrid with fmg_double
  std::unique_ptr<DirichletLift> lift; // full multigrid's lift of nonzero Dirichlet values, made on first use
  WorkVec correction;                  // the double Richardson step's cycle from zero
  bool odd_finest = false;       // a mesh that could coarsen kept one level: the finest level's cell ranges are odd
  MemSpace space = MemSpace::Host;

  // transpose: the cycle's transpose, pre- and post-smoothing swapped and transposed (the
  // smoother S before and after: S^T in both; S before, S^T after: the cycle itself)
  CycleConfig config(bool transpose = false) const
  {
    CycleConfig c;
    const Level &L = *mesh.back();
    const bool single = precision == PC_VPATCHMG_SINGLE, sym = symmetric_cycle;
    c.pre  = smoother.config((int)L.dim, (int)L.degree, single, transpose && !sym);
    c.post = smoother.config((int)L.dim, (int)L.degree, single, transpose || sym);
    c.smooth_its = (int)smooth_its;
    c.cycles = (int)cycle;
    return c;
  }
  void reset()
  {
    single.reset();
    dbl.reset();
    fmg.reset();
    lift.reset();
  }
};

// The agglomeration limit: the option's, or by default on the GPU the CUDA graphs' level size
// (the levels whose cycles are latency-bound: on rank 0 alone they exchange no ghosts, and
// their cycles and full multigrid replay as graphs), on the CPU none.
static PetscInt AgglomerationLimit(const PC_VPatchMG *mg, MemSpace space)
{
  if (mg->agglomerate >= 0) return mg->agglomerate;
  return space == MemSpace::Device ? (PetscInt)Hierarchy<float>::graph_points() : 0;
}

// Coarsen the operator's level as far as asked (or to 2 cells per direction, or as far as
// the rank partition stays nested). On several ranks, the first coarse level with at most
// the agglomeration limit's points and the levels below it go to rank 0 alone; so does the
// level where the ranks' cell ranges stop halving while the mesh still could (so that the
// hierarchy, and the iterations, are those of one rank).
static PetscErrorCode BuildMeshes(PC pc, PC_VPatchMG *mg, MemSpace space)
{
  std::shared_ptr<Level> fine, twin;
  PetscMPIInt size;
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);
  PetscFunctionBegin;
  PetscCall(OperatorLevelForPC(pc->pmat, "PCVPATCHMG", &fine));
  PetscCallMPI(MPI_Comm_size(fine->comm, &size));
  std::vector<std::shared_ptr<Level>> mesh{fine};
  PetscInt cells = fine->cells; // of the last level (known on every rank, also where it is on rank 0 alone)
  size_t agg_from_fine = 0;     // the agglomerated level, counted from the finest (0: none)
  const PetscInt wanted = mg->levels;
  PetscInt limit = AgglomerationLimit(mg, space); // 0 in the Agglomeration: chosen by the rank grid
  // the last level goes to rank 0 (with all below it) if it is a coarse one within the limit
  auto agglomerate = [&](bool below_limit) -> PetscErrorCode {
    PetscFunctionBegin;
    if (!agg_from_fine && size > 1 && mesh.size() > 1 && below_limit) {
      twin = mesh.back();
      PetscCall(LevelCreateOnRoot(*twin, &mesh.back()));
      agg_from_fine = mesh.size() - 1;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  while ((wanted < 0 || (PetscInt)mesh.size() < wanted)) {
    PetscCall(agglomerate(mesh.back() && mesh.back()->global_points() <= limit));
    const bool halves = cells % 2 == 0 && cells > 2;
    bool nested = halves;
    if (!agg_from_fine)
      for (PetscInt d = 0; d < fine->dim && nested; ++d)
        for (PetscInt c : mesh.back()->cell_ranges[d]) nested = nested && c % 2 == 0;
    if (halves && !nested && size > 1 && mesh.size() > 1) { // the rank grid stops here, rank 0 goes on
      limit = 0;
      PetscCall(agglomerate(true));
      continue;
    }
    if (!nested) {
      const char *prefix;
      PetscCall(PCGetOptionsPrefix(pc, &prefix));
      PetscCheck(wanted < 0, comm, PETSC_ERR_ARG_INCOMP,
                 "PCVPATCHMG: %" PetscInt_FMT " levels asked for (-%spc_vpatchmg_levels or PCVPatchMGSetLevels()), but a mesh of %" PetscInt_FMT
                 " cells per direction on this rank grid coarsens to only %d levels",
                 wanted, prefix ? prefix : "", fine->cells, (int)mesh.size());
      break;
    }
    std::shared_ptr<Level> coarse;
    if (mesh.back()) PetscCall(LevelCoarsen(*mesh.back(), &coarse));
    mesh.push_back(coarse);
    cells /= 2;
  }
  PetscCall(agglomerate(mesh.back() && mesh.back()->global_points() <= limit));
  mg->odd_finest = mesh.size() == 1 && wanted < 0 && size > 1 && fine->cells % 2 == 0 && fine->cells > 2;
  if (mg->odd_finest)
    PetscCall(PetscInfo(pc, "vpatch: one level only: the finest level's cell ranges on this rank grid are not all even, so it does not coarsen\n"));
  mg->mesh.assign(mesh.rbegin(), mesh.rend());
  mg->agg.reset();
  if (agg_from_fine) PetscCall(AgglomerationCreate((int)(mesh.size() - 1 - agg_from_fine), limit, twin, &mg->agg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
static PetscErrorCode GetHierarchy(PC_VPatchMG *mg, MemSpace s, std::unique_ptr<Hierarchy<Number>> &h);

static PetscErrorCode PCSetUp_VPatchMG(PC pc)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(events.setup, pc, 0, 0, 0));
  mg->reset();
  mg->mesh.clear(); // (a setup that fails leaves none: Apply's check)
  mg->agg.reset();
  MemSpace s = MemSpace::Host;
  PetscCall(MatMemSpace(pc->pmat, &s)); // allocate the hierarchy now, not inside the solve
  PetscCall(BuildMeshes(pc, mg, s));
  if (mg->precision == PC_VPATCHMG_SINGLE) {
    PetscCall(GetHierarchy(mg, s, mg->single));
    PetscCall(mg->single->prepare_exchanges(mg->config().pre));
  } else {
    PetscCall(GetHierarchy(mg, s, mg->dbl));
    PetscCall(mg->dbl->prepare_exchanges(mg->config().pre));
  }
  PetscCall(PetscLogEventEnd(events.setup, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The hierarchy in the memory space of the vectors, created on first use.
template <typename Number>
static PetscErrorCode GetHierarchy(PC_VPatchMG *mg, MemSpace s, std::unique_ptr<Hierarchy<Number>> &h)
{
  void *stream;
  PetscFunctionBegin;
  if (h && mg->space != s) {
    h.reset();
    mg->fmg.reset();
  }
  try {
    // in PETSc's scalar type the finest level works on the PC's own vectors (Run)
    if (!h) h = std::make_unique<Hierarchy<Number>>(mg->mesh, s, mg->smoother.solver == PC_VPATCH_LOCAL_DENSE, std::is_same_v<Number, PetscScalar>, mg->agg);
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: %s", e.what());
  }
  mg->space = s;
  PetscCall(CurrentStream(s, &stream));
  h->set_stream(stream);
  if (h->graphs_requested() != (bool)mg->graphs) h->use_graphs(mg->graphs);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The double side of the float hierarchy (full multigrid, Richardson steps), made on first use.
static PetscErrorCode GetMixed(PC_VPatchMG *mg, MemSpace s)
{
  PetscFunctionBegin;
  try {
    if (!mg->fmg) mg->fmg = std::make_unique<MixedFMG>(mg->mesh, s, mg->agg);
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: %s", e.what());
  }
  mg->fmg->set_stream(mg->single->level(mg->single->size() - 1).stream());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// y = cycle(b) (its transpose): V/W-cycle from zero, or full multigrid (nested iteration).
// keep_y (Richardson steps): y is the start, not overwritten: the double cycle runs from y on
// the right-hand side b, the float cycle's correction of b (then the residual of y) is added
// to y in double.
template <typename Number>
static PetscErrorCode Run(PC pc, std::unique_ptr<Hierarchy<Number>> &h, Vec b, Vec y, bool full, bool transpose, bool keep_y = false)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  MemSpace s = MemSpace::Host;
  const PetscScalar *ba;
  PetscScalar *ya;
  PetscFunctionBegin;
  PetscCall(SameSpace(b, y, &s));
  PetscCall(GetHierarchy(mg, s, h));
  Hierarchy<Number> &H = *h;
  const int f = H.size() - 1;
  const size_t n = (size_t)H.level(f).box().owned_points();
  PetscCheck(!(keep_y && full), PETSC_COMM_SELF, PETSC_ERR_PLIB, "vpatch: full multigrid starts from zero");
  VecRead br(b, s);
  VecWrite yw(y, s, keep_y);
  PetscCall(br.get(&ba));
  PetscCall(yw.get(&ya));
  if constexpr (std::is_same_v<Number, float>) {
    if (full && mg->fmg_double) {
      PetscCall(GetMixed(mg, s));
      PetscCall(mg->fmg->run(H, mg->config(), ba, ya));
      PetscCall(yw.restore());
      PetscCall(br.restore());
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if constexpr (std::is_same_v<Number, PetscScalar>) H.bind_finest(ba, ya);
  else {
    PetscCall(PetscLogEventBegin(events.convert, pc, b, y, 0));
    convert(s, n, ba, H.rhs(f), H.level(f).stream());
    PetscCall(PetscLogEventEnd(events.convert, pc, b, y, 0));
  }
  if (full) PetscCall(H.full(mg->config()));
  else PetscCall(H.cycle(mg->config(transpose), !(keep_y && std::is_same_v<Number, PetscScalar>)));
  if constexpr (std::is_same_v<Number, PetscScalar>) H.bind_finest(nullptr, nullptr);
  else {
    PetscCall(PetscLogEventBegin(events.convert, pc, b, y, 0));
    convert(s, n, H.solution(f), ya, H.level(f).stream(), keep_y);
    PetscCall(PetscLogEventEnd(events.convert, pc, b, y, 0));
  }
  PetscCall(yw.restore());
  PetscCall(br.restore());
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Apply(PC pc, Vec b, Vec y, bool full, bool transpose = false)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  PetscFunctionBegin;
  PetscCall(OperatorCheckSetUp(pc, mg->mesh.empty() ? nullptr : mg->mesh.back().get(), "PCVPATCHMG"));
  if (mg->precision == PC_VPATCHMG_SINGLE) PetscCall(Run(pc, mg->single, b, y, full, transpose));
  else PetscCall(Run(pc, mg->dbl, b, y, full, transpose));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_VPatchMG(PC pc, Vec b, Vec y) { return Apply(pc, b, y, false); }

// KSPRichardson's fast path (taken without monitors, with PETSc's default or no convergence
// test): the iteration of the paper's Algorithm 2.2 after its full multigrid, cycles on the
// finest level until ||b - A y|| meets the tolerances (richardson_test.hpp, as PCVPATCH's fast
// path; A = pc->mat). Where A is the operator the hierarchy was built on: in double a step is
// one cycle from y, the residuals for the tests MatResidual's in w, their norms summed in the
// same pass on one rank's device (OperatorResidualNorm); in single precision a step
// of iterative refinement (MixedFMG): the double residual rounded to float (in one pass on
// one GPU), whose norm the tests take, the float cycle on it from zero, its correction added
// to y in double (w gets the last float residual). With another A (or A changed since a
// setup the KSP reuses) a step is y += the cycle of w = b - A y (MatResidual). In single
// precision on a level whose residual pass adds the correction (MixedFMG::
// corrects_in_residual), a step's correction and the next residual take one pass, from y to w
// and back (the pass reads the iterate around each point, so it cannot update it in place;
// after an odd number of such steps y gets w's copy; untested, w is then left holding an
// iterate, not a residual, as it held nothing before). The last step reached is CONVERGED_ITS,
// PETSc's convention for this path.
static PetscErrorCode PCApplyRichardson_VPatchMG(PC pc, Vec b, Vec y, Vec w, PetscReal rtol, PetscReal abstol, PetscReal dtol, PetscInt its,
                                                 PetscBool guesszero, PetscInt *outits, PCRichardsonConvergedReason *reason)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  const bool single = mg->precision == PC_VPATCHMG_SINGLE, tested = RichardsonTest::active(rtol, abstol);
  PetscReal bnorm, rn;
  MemSpace s = MemSpace::Host;
  PetscBool base;
  PetscFunctionBegin;
  PetscCall(OperatorCheckSetUp(pc, mg->mesh.empty() ? nullptr : mg->mesh.back().get(), "PCVPATCHMG"));
  PetscCall(SameSpace(b, y, &s));
  *outits = 0;
  *reason = PCRICHARDSON_CONVERGED_ITS;
  if (its <= 0) { // no step
    if (guesszero) PetscCall(VecZeroEntries(y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  // own: A is the operator the hierarchy was built on (not another Amat, nor one changed since a
  // setup the KSP reuses); else corrections of w = b - A y
  PetscCall(OperatorIsBase(pc->mat, &base));
  const bool own = pc->mat == pc->pmat && base, fused = single && own, in_place = !single && own;
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  // fused: the float hierarchy's finest right-hand side holds the residual of y between the
  // steps; b and y as raw arrays throughout
  std::optional<VecRead> br;
  std::optional<VecWrite> yw, ww;
  const PetscScalar *ba = nullptr;
  PetscScalar *ya = nullptr, *wa = nullptr;
  PetscScalar *cur = nullptr; // fused: the iterate, ya or (after a step in one pass) wa
  bool one_pass = false;      // fused: a step's correction in the next residual's pass, to the other of ya, wa
  int f = 0;
  size_t n = 0; // the finest level's owned points
  auto residual = [&]() -> PetscErrorCode { // rn = the norm of the iterate's residual (fused: of the float residual)
    PetscFunctionBegin;
    if (fused) PetscCall(mg->fmg->residual(*mg->single, f, ba, cur, &rn));
    else {
      PetscCall(OperatorResidualNorm(pc->mat, b, y, w, &rn));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  auto release = [&]() -> PetscErrorCode { // (fused: w = the last residual, the float one: KSPRICHARDSON's KSPBuildResidual reads w)
    PetscFunctionBegin;
    if (fused && cur != ya) PetscCall(mg->fmg->copy(f, cur, ya));
    if (fused && tested) {
      if (!ww) {
        ww.emplace(w, s, false);
        PetscCall(ww->get(&wa));
      }
      convert(s, n, mg->single->rhs(f), wa, mg->single->level(f).stream());
    }
    if (ww) PetscCall(ww->restore());
    if (yw) PetscCall(yw->restore());
    if (br) PetscCall(br->restore());
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  if (fused) {
    PetscCall(GetHierarchy(mg, s, mg->single));
    PetscCall(GetMixed(mg, s));
    f = mg->fmg->finest();
    n = (size_t)mg->single->level(f).box().owned_points();
    br.emplace(b, s);
    yw.emplace(y, s, !guesszero);
    PetscCall(br->get(&ba));
    PetscCall(yw->get(&ya));
    cur = ya;
    one_pass = mg->fmg->corrects_in_residual(f) && w != y && w != b;
    if (one_pass) {
      ww.emplace(w, s, false);
      PetscCall(ww->get(&wa));
    }
  }
  rn = bnorm;
  if (!guesszero) PetscCall(residual());
  else if (fused) convert(s, n, ba, mg->single->rhs(f), mg->single->level(f).stream());
  const RichardsonTest test(bnorm, rn, rtol, abstol, dtol);
  PCRichardsonConvergedReason why = tested ? test(rn) : RichardsonTest::go_on;
  if (why) { // no step: y meets the tolerances already (b = 0 from zero: y = 0), or is diverged
    *reason = why;
    PetscCall(PetscInfo(pc, "vpatchmg Richardson: the initial residual norm is %g (||b|| %g)\n", (double)rn, (double)bnorm));
    PetscCall(release());
    if (guesszero) PetscCall(VecZeroEntries(y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  Vec z = nullptr;
  if (!single && !own) PetscCall(mg->correction.like(y, &z));
  for (PetscInt i = 0; i < its; ++i) {
    const bool first = guesszero && i == 0; // y holds nothing yet; the residual is b
    const bool with_residual = one_pass && !first && (tested || i + 1 < its); // the correction in the next residual's pass (one_pass: fused)
    if (with_residual) {
      PetscScalar *next = cur == ya ? wa : ya;
      PetscCall(mg->fmg->correct_residual(*mg->single, mg->config(), f, ba, cur, next, &rn));
      cur = next;
    } else if (fused) PetscCall(mg->fmg->correct(*mg->single, mg->config(), f, cur, !first));
    else if (in_place) PetscCall(Run(pc, mg->dbl, b, y, false, false, !first)); // the cycle from y
    else if (single) PetscCall(Run(pc, mg->single, first ? b : w, y, false, false, !first));
    else {
      PetscCall(Run(pc, mg->dbl, first ? b : w, first ? y : z, false, false));
      if (!first) PetscCall(VecAXPY(y, 1.0, z));
    }
    *outits = i + 1;
    if (!with_residual) {
      if (!tested && (in_place || i + 1 == its)) continue; // no test: residuals only for the next correction
      PetscCall(residual());
    }
    if (tested && (why = test(rn))) {
      *reason = why;
      break;
    }
  }
  PetscCall(release());
  PetscCall(PetscInfo(pc, "vpatchmg Richardson: %" PetscInt_FMT " steps, residual norm %g (||b|| %g)\n", *outits, (double)rn, (double)bnorm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_VPatchMG(PC pc, Vec b, Vec y) { return Apply(pc, b, y, false, true); }

// The setters (public wrappers below): what the hierarchy is built from (precision,
// levels) sets the PC up again when it changes.
static PetscErrorCode PCVPatchMGSetPrecision_VPatchMG(PC pc, PCVPatchMGPrecision p)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  if (mg->precision != p) pc->setupcalled = 0;
  mg->precision = p;
  return PETSC_SUCCESS;
}
static PetscErrorCode PCVPatchMGGetPrecision_VPatchMG(PC pc, PCVPatchMGPrecision *p)
{
  *p = static_cast<PC_VPatchMG *>(pc->data)->precision;
  return PETSC_SUCCESS;
}
static PetscErrorCode PCVPatchMGSetLevels_VPatchMG(PC pc, PetscInt levels)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  if (mg->levels != levels) pc->setupcalled = 0;
  mg->levels = levels;
  return PETSC_SUCCESS;
}
static PetscErrorCode PCVPatchMGSetNumberSmooth_VPatchMG(PC pc, PetscInt n) { return static_cast<PC_VPatchMG *>(pc->data)->smooth_its = n, PETSC_SUCCESS; }
static PetscErrorCode PCVPatchMGSetCycleType_VPatchMG(PC pc, PCMGCycleType t) { return static_cast<PC_VPatchMG *>(pc->data)->cycle = t, PETSC_SUCCESS; }
static PetscErrorCode PCVPatchMGSetSymmetricCycle_VPatchMG(PC pc, PetscBool on)
{
  return static_cast<PC_VPatchMG *>(pc->data)->symmetric_cycle = on, PETSC_SUCCESS;
}

// "-<prefix>name" for an error message about an option
static const char *OptionName(PetscOptionItems *PetscOptionsObject, const char *name, char (&buf)[128])
{
  (void)PetscSNPrintf(buf, sizeof(buf), "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", name + 1);
  return buf;
}

static PetscErrorCode PCSetFromOptions_VPatchMG(PC pc, PetscOptionItems *PetscOptionsObject)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  PetscBool flg;
  PetscInt v;
  PCVPatchMGPrecision precision = mg->precision;
  char buf[128];
  // what the hierarchy is built from (PCSetUp): a change sets the PC up again
  const PetscInt agglomerate = mg->agglomerate;
  const PCVPatchLocalSolverType solver = mg->smoother.solver;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Vertex-patch multigrid (mixed precision) options");
  PetscCall(PetscOptionsEnum("-pc_vpatchmg_precision", "Precision of the multigrid cycle", "PCVPatchMGSetPrecision", PCVPatchMGPrecisions, (PetscEnum)precision,
                             (PetscEnum *)&precision, &flg));
  if (flg) PetscCall(PCVPatchMGSetPrecision_VPatchMG(pc, precision));
  v = mg->levels;
  PetscCall(PetscOptionsInt("-pc_vpatchmg_levels", "Number of levels (default: coarsen to 2 cells per direction)", "PCVPatchMGSetLevels", v, &v, &flg));
  if (flg) {
    if (v == PETSC_DEFAULT) v = PETSC_DECIDE; // (the values DECIDE and DEFAULT, as PCVPatchMGSetLevels takes them)
    PetscCheck(v >= 1 || v == PETSC_DECIDE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "%s must be at least 1 (or DECIDE, DEFAULT), not %" PetscInt_FMT,
               OptionName(PetscOptionsObject, "-pc_vpatchmg_levels", buf), v);
    PetscCall(PCVPatchMGSetLevels_VPatchMG(pc, v));
  }
  PetscCall(PetscOptionsInt("-pc_vpatchmg_smooth_its", "Pre- and post-smoothing sweeps per level", "PCVPatchMGSetNumberSmooth", mg->smooth_its, &v, &flg));
  if (flg) {
    PetscCheck(v >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "%s must be at least 1, not %" PetscInt_FMT,
               OptionName(PetscOptionsObject, "-pc_vpatchmg_smooth_its", buf), v);
    mg->smooth_its = v;
  }
  PetscCall(PetscOptionsBool("-pc_vpatchmg_fmg_double", "Single-precision full multigrid (PCVPatchMGApplyFull) keeps the level solutions in double: a float cycle per level on the double residual", "PCVPatchMGApplyFull", mg->fmg_double, &mg->fmg_double, nullptr));
  // (PETSc's PCMGCycleTypes list starts with "invalid", which -help would offer)
  static const char *const cycles[] = {"v", "w"};
  PetscInt cycle = mg->cycle == PC_MG_CYCLE_W;
  PetscCall(PetscOptionsEList("-pc_vpatchmg_cycle_type", "Cycle type", "PCVPatchMGSetCycleType", cycles, 2, cycles[cycle], &cycle, &flg));
  if (flg) mg->cycle = cycle ? PC_MG_CYCLE_W : PC_MG_CYCLE_V;
  PetscCall(PetscOptionsBool("-pc_vpatchmg_symmetric_cycle",
                             "Post-smoothing by the transposed smoother (forward sweep before, backward after the coarse correction): a symmetric "
                             "preconditioner, for CG",
                             "PCVPatchMGSetSymmetricCycle", mg->symmetric_cycle, &mg->symmetric_cycle, nullptr));
  PetscCall(PetscOptionsBool("-pc_vpatchmg_allow_inflexible",
                             "In single precision, allow Krylov methods that need a linear preconditioner (GMRES, BiCGStab, ...: their residual estimates go wrong)",
                             "PCVPATCHMG", mg->allow_inflexible, &mg->allow_inflexible, nullptr));
  PetscCall(PetscOptionsInt("-pc_vpatchmg_agglomerate",
                            "On several ranks, the coarse levels with at most this many points on rank 0 alone (0: none; -1: 2^21 on the GPU, 0 on the CPU)", "PCVPATCHMG",
                            mg->agglomerate, &v, &flg));
  if (flg) {
    PetscCheck(v >= -1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "%s must be at least 0, or -1 for the default of the memory space, not %" PetscInt_FMT,
               OptionName(PetscOptionsObject, "-pc_vpatchmg_agglomerate", buf), v);
    mg->agglomerate = v;
  }
  PetscCall(PetscOptionsBool("-pc_vpatchmg_cuda_graphs", "On the GPU, replay the small levels' cycles and full multigrid (levels of at most 2^21 points) as CUDA graphs", "PCVPATCHMG", mg->graphs, &mg->graphs, nullptr));
  PetscCall(mg->smoother.set_from_options(PetscOptionsObject, "-pc_vpatchmg"));
  PetscOptionsHeadEnd();
  if (mg->agglomerate != agglomerate || mg->smoother.solver != solver) pc->setupcalled = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_VPatchMG(PC pc, PetscViewer viewer)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  PetscBool ascii;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %s-precision multigrid, %s-cycle, %" PetscInt_FMT " pre- and post-smoothing sweeps\n",
                                   PCVPatchMGPrecisions[mg->precision], mg->cycle == PC_MG_CYCLE_V ? "V" : "W", mg->smooth_its));
  // (one level of 2 cells is one exact solve: symmetric, no post-smoothing)
  const bool exact_only = mg->mesh.size() == 1 && mg->mesh.back()->cells == 2;
  if (mg->smoother.type == PC_VPATCH_MULTIPLICATIVE && mg->smoother.sweep != PC_VPATCH_SWEEP_SYMMETRIC && !exact_only) {
    if (mg->symmetric_cycle) PetscCall(PetscViewerASCIIPrintf(viewer, "  symmetric cycle: post-smoothing by the transposed sweep\n"));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  post-smoothing by the same sweep (not symmetric, for CG: -pc_vpatchmg_symmetric_cycle)\n"));
  }
  if (mg->precision == PC_VPATCHMG_SINGLE)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  full multigrid: %s\n",
                                     mg->fmg_double ? "level solutions in double, one float cycle per level on the double residual" : "all in float"));
  if (mg->space == MemSpace::Device) {
    const int gl = mg->precision == PC_VPATCHMG_SINGLE ? (mg->single ? mg->single->graph_level() : -1) : (mg->dbl ? mg->dbl->graph_level() : -1);
    PetscBool logging;
    PetscCall(PetscLogIsActive(&logging));
    if (gl >= 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  CUDA graphs: the cycles from zero and full multigrid of levels 0..%d%s%s\n", gl, mg->agg ? " (on rank 0)" : "",
                                       logging ? " (not while PETSc logs events)" : ""));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  CUDA graphs: none%s\n", mg->graphs ? "" : " (-pc_vpatchmg_cuda_graphs 0)"));
  }
  const char *route = mg->precision == PC_VPATCHMG_SINGLE ? (mg->single ? mg->single->exchange_route() : nullptr) : (mg->dbl ? mg->dbl->exchange_route() : nullptr);
  if (route) PetscCall(PetscViewerASCIIPrintf(viewer, "  ghost exchanges between ranks: %s\n", route));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (mg->mesh.empty()) {
    PetscCall(mg->smoother.view(viewer, 0, 0, mg->precision == PC_VPATCHMG_SINGLE, false));
    if (mg->levels > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " levels (not set up)\n", mg->levels));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "(not set up)\n"));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const Level &F = *mg->mesh.back();
  PetscCall(mg->smoother.view(viewer, (int)F.dim, (int)F.degree, mg->precision == PC_VPATCHMG_SINGLE, mg->space == MemSpace::Device));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%d levels of Q%" PetscInt_FMT " in %" PetscInt_FMT "D (%s vectors, operator, transfers and smoother):\n",
                                   (int)mg->mesh.size(), F.degree, F.dim, mg->precision == PC_VPATCHMG_SINGLE ? "float" : "double"));
  for (size_t l = 0, cells = F.cells >> (mg->mesh.size() - 1); l < mg->mesh.size(); ++l, cells *= 2) {
    PetscInt points = 1;
    char coarse[128] = "";
    for (PetscInt d = 0; d < F.dim; ++d) points *= (PetscInt)cells * F.degree + 1;
    if (l == 0 && cells == 2) PetscCall(PetscStrncpy(coarse, " (exact coarse solve: one vpatch application)", sizeof(coarse)));
    else if (l == 0) {
      const bool both = mg->symmetric_cycle && mg->smoother.type == PC_VPATCH_MULTIPLICATIVE && mg->smoother.sweep != PC_VPATCH_SWEEP_SYMMETRIC;
      PetscCall(PetscSNPrintf(coarse, sizeof(coarse), " (coarse: %" PetscInt_FMT " application(s) of the smoother above%s)", mg->smooth_its,
                              both ? ", then as many of its transpose" : ""));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "  level %d: %" PetscInt_FMT " cells per direction, %" PetscInt_FMT " unknowns%s%s\n", (int)l, (PetscInt)cells,
                                     points, coarse, mg->agg && (int)l <= mg->agg->level ? " on rank 0 alone" : ""));
  }
  if (mg->odd_finest)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  one level only: the finest level's cell ranges on this rank grid are not all even, so it does not coarsen (a rank "
                                             "count that splits the cells into even ranges keeps the hierarchy)\n"));
  if (mg->agg) {
    char why[96];
    if (mg->agg->limit)
      PetscCall(PetscSNPrintf(why, sizeof(why), "-pc_vpatchmg_agglomerate: levels of at most %" PetscInt_FMT " points%s", mg->agg->limit,
                              mg->agglomerate < 0 ? ", the GPU default" : ""));
    else PetscCall(PetscStrncpy(why, "the ranks' cell ranges halve no further", sizeof(why)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  level%s%d gathered onto rank 0 (%s)\n", mg->agg->level ? "s 0.." : " ", mg->agg->level, why));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_VPatchMG(PC pc)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  PetscFunctionBegin;
  mg->reset();
  mg->mesh.clear();
  mg->agg.reset();
  PetscCall(mg->correction.reset());
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ComposeMethods(PC pc, bool on);

static PetscErrorCode PCDestroy_VPatchMG(PC pc)
{
  PetscFunctionBegin;
  delete static_cast<PC_VPatchMG *>(pc->data);
  pc->data = nullptr;
  PetscCall(ComposeMethods(pc, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// With nonzero Dirichlet values full multigrid runs on the difference to their lift L
// (dirichlet_lift.hpp): y = L + FMG(b - A L), where b - A L has zero boundary rows.
static PetscErrorCode PCVPatchMGApplyFull_VPatchMG(PC pc, Vec b, Vec y)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  MemSpace s = MemSpace::Host;
  bool nonzero;
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(events.full_mg, pc, b, y, 0));
  PetscCall(OperatorCheckSetUp(pc, mg->mesh.empty() ? nullptr : mg->mesh.back().get(), "PCVPATCHMG"));
  PetscCall(SameSpace(b, y, &s));
  if (!mg->lift) mg->lift = std::make_unique<DirichletLift>(mg->mesh.back());
  PetscCall(mg->lift->gather(b, &nonzero));
  if (!nonzero) PetscCall(Apply(pc, b, y, true));
  else {
    Vec r = nullptr;
    PetscCall(mg->lift->work(b, &r));
    PetscCall(mg->lift->apply(y));
    PetscCall(MatResidual(pc->pmat, b, y, r));
    PetscCall(Apply(pc, r, y, true));
    PetscCall(mg->lift->apply(r));
    PetscCall(VecAXPY(y, 1.0, r));
  }
  PetscCall(PetscLogEventEnd(events.full_mg, pc, b, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The float cycle is linear only up to float rounding. Krylov methods that rely on the
// preconditioner's linearity beyond that (GMRES builds its solution by applying it once more to
// a combination of Krylov vectors; BiCGStab, TFQMR, CGS, left-preconditioned methods estimate
// residuals through it) then report convergence on an estimate that the true residual does not
// follow (2D Q2 on 256 cells with GMRES: CONVERGED_RTOL at a true relative residual of 3.5e-3
// for 1e-9). Flexible methods and those whose residual is updated with A alone are safe.
static PetscErrorCode PCPreSolve_VPatchMG(PC pc, KSP ksp, Vec, Vec)
{
  auto *mg = static_cast<PC_VPatchMG *>(pc->data);
  PetscBool safe;
  KSPType type;
  const char *prefix;
  PetscFunctionBegin;
  if (mg->precision != PC_VPATCHMG_SINGLE || mg->allow_inflexible) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)ksp, &safe, KSPFGMRES, KSPPIPEFGMRES, KSPGCR, KSPFCG, KSPPIPEFCG, KSPPIPEGCR, KSPFBCGS, KSPFBCGSR, KSPCG,
                                      KSPRICHARDSON, KSPPREONLY, ""));
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscBool preonly;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
  if (preonly)
    PetscCall(PetscInfo(pc, "vpatch: single-precision cycle under KSPPREONLY: a Krylov method around the enclosing preconditioner, if any, must be flexible\n"));
  PetscCheck(safe, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_INCOMP,
             "PCVPATCHMG in single precision under KSP %s: the float cycle is linear only to float rounding, and %s would report convergence on a residual "
             "estimate that its true residual does not follow. Use a flexible method (-ksp_type fgmres, gcr, fcg, fbcgs) or cg or richardson, or "
             "-%spc_vpatchmg_precision double; -%spc_vpatchmg_allow_inflexible goes on anyway",
             type, type, prefix ? prefix : "", prefix ? prefix : "");
  PetscFunctionReturn(PETSC_SUCCESS);
}

// on: compose the type's methods (PCCreate); else remove them (PCDestroy)
static PetscErrorCode ComposeMethods(PC pc, bool on)
{
  PetscObject o = (PetscObject)pc;
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction(o, "PCVPatchMGApplyFull_C", on ? Guarded<PCVPatchMGApplyFull_VPatchMG>::call : nullptr));
  PetscCall(PetscObjectComposeFunction(o, "PCVPatchMGSetPrecision_C", on ? PCVPatchMGSetPrecision_VPatchMG : nullptr));
  PetscCall(PetscObjectComposeFunction(o, "PCVPatchMGGetPrecision_C", on ? PCVPatchMGGetPrecision_VPatchMG : nullptr));
  PetscCall(PetscObjectComposeFunction(o, "PCVPatchMGSetLevels_C", on ? PCVPatchMGSetLevels_VPatchMG : nullptr));
  PetscCall(PetscObjectComposeFunction(o, "PCVPatchMGSetNumberSmooth_C", on ? PCVPatchMGSetNumberSmooth_VPatchMG : nullptr));
  PetscCall(PetscObjectComposeFunction(o, "PCVPatchMGSetCycleType_C", on ? PCVPatchMGSetCycleType_VPatchMG : nullptr));
  PetscCall(PetscObjectComposeFunction(o, "PCVPatchMGSetSymmetricCycle_C", on ? PCVPatchMGSetSymmetricCycle_VPatchMG : nullptr));
  PetscCall(SmootherSetters<PC_VPatchMG>::compose(pc, on));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace vpatch

using namespace vpatch;

PETSC_EXTERN PetscErrorCode PCCreate_VPatchMG(PC pc)
{
  PetscFunctionBegin;
  pc->data = new PC_VPatchMG();
  pc->ops->setup = Guarded<PCSetUp_VPatchMG>::call;
  pc->ops->apply = Guarded<PCApply_VPatchMG>::call;
  pc->ops->applytranspose = Guarded<PCApplyTranspose_VPatchMG>::call;
  pc->ops->applyrichardson = Guarded<PCApplyRichardson_VPatchMG>::call;
  pc->ops->presolve = PCPreSolve_VPatchMG;
  pc->ops->setfromoptions = PCSetFromOptions_VPatchMG;
  pc->ops->view = PCView_VPatchMG;
  pc->ops->reset = Guarded<PCReset_VPatchMG>::call;
  pc->ops->destroy = Guarded<PCDestroy_VPatchMG>::call;
  PetscCall(ComposeMethods(pc, true));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGApplyFull(PC pc, Vec b, Vec y)
{
  std::shared_ptr<Level> fine;
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidHeaderSpecific(b, VEC_CLASSID, 2);
  PetscValidHeaderSpecific(y, VEC_CLASSID, 3);
  PetscCheck(b != y, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_IDN, "b and y must be different vectors");
  PetscCall(PCSetUp(pc));
  PetscCall(LevelQuery((PetscObject)pc->pmat, &fine));
  if (fine) { // (else PCVPatchMGApplyFull_C is missing: not a PCVPATCHMG)
    PetscCall(LevelCheckVec(*fine, b, "PCVPatchMGApplyFull, b"));
    PetscCall(LevelCheckVec(*fine, y, "PCVPatchMGApplyFull, y"));
  }
  PetscUseMethod(pc, "PCVPatchMGApplyFull_C", (PC, Vec, Vec), (pc, b, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGSetPrecision(PC pc, PCVPatchMGPrecision precision)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, precision, 2);
  PetscCheck(precision == PC_VPATCHMG_SINGLE || precision == PC_VPATCHMG_DOUBLE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "Unknown PCVPatchMGPrecision %d", (int)precision);
  PetscTryMethod(pc, "PCVPatchMGSetPrecision_C", (PC, PCVPatchMGPrecision), (pc, precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGGetPrecision(PC pc, PCVPatchMGPrecision *precision)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(precision, 2);
  PetscUseMethod(pc, "PCVPatchMGGetPrecision_C", (PC, PCVPatchMGPrecision *), (pc, precision));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGSetLevels(PC pc, PetscInt levels)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, levels, 2);
  if (levels == PETSC_DEFAULT) levels = PETSC_DECIDE; // (PETSc's setters take either for the default)
  PetscCheck(levels >= 1 || levels == PETSC_DECIDE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE,
             "The number of levels must be at least 1 (or PETSC_DECIDE, PETSC_DEFAULT), not %" PetscInt_FMT, levels);
  PetscTryMethod(pc, "PCVPatchMGSetLevels_C", (PC, PetscInt), (pc, levels));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGSetNumberSmooth(PC pc, PetscInt sweeps)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, sweeps, 2);
  PetscCheck(sweeps >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "The smoothing sweeps must be at least 1, not %" PetscInt_FMT, sweeps);
  PetscTryMethod(pc, "PCVPatchMGSetNumberSmooth_C", (PC, PetscInt), (pc, sweeps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGSetCycleType(PC pc, PCMGCycleType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, type, 2);
  PetscCheck(type == PC_MG_CYCLE_V || type == PC_MG_CYCLE_W, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCMGCycleType %d", (int)type);
  PetscTryMethod(pc, "PCVPatchMGSetCycleType_C", (PC, PCMGCycleType), (pc, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGSetSymmetricCycle(PC pc, PetscBool on)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, on, 2);
  PetscTryMethod(pc, "PCVPatchMGSetSymmetricCycle_C", (PC, PetscBool), (pc, on));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCVPatchMGGetLevels(PC pc, PetscInt *levels)
{
  PetscBool flg;
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(levels, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCVPATCHMG, &flg));
  PetscCheck(flg, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "Not a PCVPATCHMG");
  PetscCall(PCSetUp(pc));
  *levels = (PetscInt)static_cast<PC_VPatchMG *>(pc->data)->mesh.size();
  PetscFunctionReturn(PETSC_SUCCESS);
}
