#include "level_ops.hpp"
#include "logging.hpp"
#include "peer_exchange.hpp"
#include "sweep_halo.hpp"
#include "../core/cpu/kernels_cpu.hpp"
#include "../core/dispatch.hpp"
#include "../cuda/vector_ops_cuda.hpp"
#include <algorithm>
#include <cstring>
#include <petscsf.h>
#include <type_traits>

namespace vpatch {

namespace {
// Kernel work is logged as GPU time and GPU flops on the device (what -log_view reports as
// GPU Mflop/s), as CPU flops on the host.
PetscErrorCode KernelBegin(MemSpace s)
{
  PetscFunctionBegin;
#if defined(VPATCH_HAVE_CUDA)
  if (s == MemSpace::Device) PetscCall(PetscLogGpuTimeBegin());
#else
  (void)s;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
PetscErrorCode KernelEnd(MemSpace s, double flops)
{
  PetscFunctionBegin;
#if defined(VPATCH_HAVE_CUDA)
  if (s == MemSpace::Device) {
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(PetscLogFlops(flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

double contract_flops(int nr, int nm, int others) { return 2.0 * nr * nm * others; }
double kron_sum_flops(int dim, int nin, int nout)
{
  if (dim == 2) return 2 * contract_flops(nout, nin, nin) + 2 * contract_flops(nout, nin, nout);
  return 2 * contract_flops(nout, nin, nin * nin) + 3 * contract_flops(nout, nin, nout * nin) + 2 * contract_flops(nout, nin, nout * nout);
}
double tensor_flops(int dim, int nin, int nout)
{
  if (dim == 2) return contract_flops(nout, nin, nin) + contract_flops(nout, nin, nout);
  return contract_flops(nout, nin, nin * nin) + contract_flops(nout, nin, nout * nin) + contract_flops(nout, nin, nout * nout);
}
double pow_dim(int n, int dim) { return dim == 2 ? double(n) * n : double(n) * n * n; }
double owned_cells(const Box &b) { return double(b.ce[0] - b.cs[0]) * (b.ce[1] - b.cs[1]) * (b.ce[2] - b.cs[2]); }
} // namespace

double laplace_flops(const Box &box) { return owned_cells(box) * (kron_sum_flops(box.dim, box.degree + 1, box.degree + 1) + pow_dim(box.degree + 1, box.dim)); }

double patch_flops(const Box &box, PatchResidual mode, LocalSolver solver, int color)
{
  const int k = box.degree, np = 2 * k + 1, ni = 2 * k - 1, dim = box.dim;
  const double nint = pow_dim(ni, dim);
  double per = 2 * nint; // scale and add
  if (mode == PatchResidual::Local) per += kron_sum_flops(dim, np, ni) + nint;
  per += solver == LocalSolver::Dense ? 2 * nint * nint : 2 * tensor_flops(dim, ni, ni) + 3 * nint;
  double patches = 0;
  for (int c = 0; c < (1 << dim); ++c) {
    if (color >= 0 && c != color) continue;
    double count = 1;
    for (int d = 0; d < dim; ++d) {
      int n = 0;
      for (int v = box.patch_begin(d); v < box.patch_end(d); ++v) n += ((v & 1) == ((c >> d) & 1));
      count *= n;
    }
    patches += count;
  }
  return per * patches;
}

double transfer_flops(const Box &coarse) { return owned_cells(coarse) * tensor_flops(coarse.dim, coarse.degree + 1, 2 * coarse.degree + 1); }

// ---------------------------------------------------------------------------- Buffer
template <typename Number>
Buffer<Number>::Buffer(MemSpace s, size_t n) : n_(n), space_(s)
{
  if (!n) return;
  if (s == MemSpace::Host) ptr_ = new Number[n]();
  else if constexpr (have_cuda) ptr_ = static_cast<Number *>(cuda::device_malloc(n * sizeof(Number)));
  else throw std::runtime_error("vpatch was built without CUDA");
}
template <typename Number>
Buffer<Number>::Buffer(MemSpace s, const std::vector<Number> &host) : Buffer(s, host.size())
{
  if (!n_) return;
  if (s == MemSpace::Host) std::memcpy(ptr_, host.data(), n_ * sizeof(Number));
  else if constexpr (have_cuda) cuda::copy_to_device(ptr_, host.data(), n_ * sizeof(Number));
}
template <typename Number>
Buffer<Number>::~Buffer()
{
  if (!ptr_) return;
  if (space_ == MemSpace::Host) delete[] ptr_;
  else if constexpr (have_cuda) {
    try { // (a destructor must not throw: cudaFree reports a sticky error of earlier work)
      cuda::device_free(ptr_);
    } catch (const std::exception &) {
    }
  }
}
template <typename Number>
void Buffer<Number>::zero(void *stream)
{
  if (!n_) return;
  if (space_ == MemSpace::Host) std::memset(ptr_, 0, n_ * sizeof(Number));
  else if constexpr (have_cuda) cuda::memset_zero(ptr_, n_ * sizeof(Number), stream);
}

// ---------------------------------------------------------------------------- LevelOps
template <typename Number>
LevelOps<Number>::LevelOps(std::shared_ptr<Level> level, MemSpace space, bool with_dense)
  : level_(std::move(level)), space_(space), host_tables_((int)level_->dim, *level_->element, *level_->matrices, with_dense)
{
  const auto &t = host_tables_;
  if (space == MemSpace::Host) {
    op_ = t.operator_view();
    patch_ = t.patch_view();
  } else {
    t_mass_ = Buffer<Number>(space, t.mass);
    t_stiff_ = Buffer<Number>(space, t.stiffness);
    t_mrows_ = Buffer<Number>(space, t.mass_rows);
    t_krows_ = Buffer<Number>(space, t.stiffness_rows);
    t_s_ = Buffer<Number>(space, t.eigenvectors);
    t_st_ = Buffer<Number>(space, t.eigenvectors_t);
    t_lambda_ = Buffer<Number>(space, t.eigenvalues);
    t_dense_ = Buffer<Number>(space, t.dense_inverse);
    op_ = {t_mass_.data(), t_stiff_.data()};
    patch_ = t.device_patch_view({t_mrows_.data(), t_krows_.data(), t_s_.data(), t_st_.data(), t_lambda_.data(),
                                  t_dense_.size() ? t_dense_.data() : nullptr});
  }
}

template <typename Number>
LevelOps<Number>::~LevelOps()
{
  while (!peers_.empty()) peers_.pop_back(); // collective, in the same order on every rank
}

template <typename From, typename To>
void convert(MemSpace s, size_t n, const From *x, To *y, void *stream, bool add)
{
  if (s == MemSpace::Host)
    for (size_t i = 0; i < n; ++i) y[i] = add ? static_cast<To>(std::common_type_t<From, To>(y[i]) + x[i]) : static_cast<To>(x[i]);
  else if constexpr (have_cuda) cuda::convert(n, x, y, stream, add);
}
template void convert<double, float>(MemSpace, size_t, const double *, float *, void *, bool);
template void convert<float, double>(MemSpace, size_t, const float *, double *, void *, bool);

double difference_to_float(MemSpace s, size_t n, const double *x, const double *ax, float *y, void *stream, bool squares)
{
  double sum = 0;
  if (s == MemSpace::Host)
    for (size_t i = 0; i < n; ++i) {
      y[i] = static_cast<float>(ax ? x[i] - ax[i] : x[i]);
      if (squares) sum += (double)y[i] * y[i];
    }
  else if constexpr (have_cuda) sum = cuda::difference_to_float(n, x, ax, y, stream, squares);
  return sum;
}

template <typename T>
PetscErrorCode BufferReserve(Buffer<T> &buf, MemSpace s, size_t n, const char *what)
{
  PetscFunctionBegin;
  if (buf.size()) PetscFunctionReturn(PETSC_SUCCESS);
  try {
    buf = Buffer<T>(s, n);
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: cannot allocate %.4g MB of %s memory for %s (%s)", (double)(n * sizeof(T)) / 1e6,
            s == MemSpace::Device ? "device" : "host", what, e.what());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
template PetscErrorCode BufferReserve(Buffer<float> &, MemSpace, size_t, const char *);
template PetscErrorCode BufferReserve(Buffer<double> &, MemSpace, size_t, const char *);

template <typename Number>
PetscErrorCode LevelOps<Number>::local_work(int which, Number **w)
{
  // sized for the level's ghosted layout and for the sweep's, one point wider (sweep_in_place)
  const Box &b = level_->sweep ? level_->sweep->box : box();
  PetscFunctionBegin;
  if (!local_[which].size()) {
    PetscCall(BufferReserve(local_[which], space_, (size_t)b.local_points(), "a ghosted work array"));
    local_[which].zero(stream_); // the closure exchanges leave the other ghosts as they are: finite
  }
  *w = local_[which].data();
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::global_to_local(const Number *g, Number *l) const
{
  PetscFunctionBegin;
  copy_owned(box(), true, g, l);
  PetscSF ghosts;
  PetscCall(LevelGetGhosts(*level_, &ghosts));
  PetscCall(bcast(ghosts, g, l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::peer_exchange(PetscSF sf, PeerExchange<Number> **pe) const
{
  PetscFunctionBegin;
  *pe = nullptr;
  if (space_ != MemSpace::Device) PetscFunctionReturn(PETSC_SUCCESS);
  auto it = std::find_if(peers_.begin(), peers_.end(), [sf](const auto &e) { return e.first == sf; });
  if (it == peers_.end()) {
    std::unique_ptr<PeerExchange<Number>> made;
    PetscCall(PetscLogEventBegin(events.peer_setup, 0, 0, 0, 0));
    PetscCall(PeerExchange<Number>::Create(sf, &made));
    PetscCall(PetscLogEventEnd(events.peer_setup, 0, 0, 0, 0));
    peers_.emplace_back(sf, std::move(made));
    it = peers_.end() - 1;
  }
  *pe = it->second.get();
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::prepare_exchange(PetscSF sf, bool *ipc) const
{
  PeerExchange<Number> *pe;
  PetscFunctionBegin;
  PetscCall(peer_exchange(sf, &pe));
  *ipc = pe != nullptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::prepare_exchanges(const SmootherConfig &cfg, bool *ipc) const
{
  bool smoother_ipc;
  PetscFunctionBegin;
  *ipc = false;
  if (!distributed()) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(prepare_exchange(level_->closure, ipc));
  if (cfg.kernel == SmootherKernel::Global || cfg.type == CompositeType::Additive) {
    PetscSF ghosts;
    PetscCall(LevelGetGhosts(*level_, &ghosts));
    PetscCall(prepare_exchange(ghosts, &smoother_ipc));
  }
  else {
    const SweepHalo *h;
    PetscCall(LevelGetSweepHalo(*level_, &h));
    PetscCall(prepare_exchange(h->sf, &smoother_ipc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::bcast(PetscSF sf, const Number *g, Number *l) const
{
  PeerExchange<Number> *pe;
  PetscFunctionBegin;
  PetscCall(peer_exchange(sf, &pe));
  if (pe) {
    PetscCall(pe->bcast(g, l, stream_));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSFBcastWithMemTypeBegin(sf, mpi_type<Number>(), memtype(space_), g, memtype(space_), l, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(sf, mpi_type<Number>(), g, l, MPI_REPLACE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::local_to_global_add(const Number *l, Number *g)
{
  PetscFunctionBegin;
  copy_owned(box(), false, l, g, true);
  PetscSF ghosts;
  PetscCall(LevelGetGhosts(*level_, &ghosts));
  PetscCall(reduce(ghosts, l, g, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The closure exchanges: x's owned points and the ghosts in the closure of the rank's cells
// (all the operator and the transfers read), and back the owners' sums over that closure
// (all they write beyond the owned points): a plane per rank boundary instead of k.
template <typename Number>
PetscErrorCode LevelOps<Number>::global_to_local_closure(const Number *g, Number *l)
{
  PetscFunctionBegin;
  copy_owned(box(), true, g, l);
  PetscCall(bcast(level_->closure, g, l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::local_to_global_closure(const Number *l, Number *g)
{
  PetscFunctionBegin;
  copy_owned(box(), false, l, g);
  PetscCall(reduce(level_->closure, l, g, false));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::reduce(PetscSF sf, const Number *l, Number *g, bool replace)
{
  PeerExchange<Number> *pe;
  const MPI_Op          op = replace ? MPI_REPLACE : MPI_SUM;
  PetscFunctionBegin;
  PetscCall(peer_exchange(sf, &pe));
  if (pe) {
    PetscCall(pe->reduce(l, g, replace, stream_));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if constexpr (std::is_same_v<Number, float>)
    if (space_ == MemSpace::Device && !replace) { // g = (float) (g + the sums in double of sf's leaves of l)
      const size_t nl = (size_t)box().local_points(), n = (size_t)box().owned_points();
      PetscInt     nroots, nleaves, maxleaf = 0;
      const PetscInt *ilocal;
      PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, nullptr));
      for (PetscInt i = 0; i < nleaves; ++i) maxleaf = std::max(maxleaf, ilocal ? ilocal[i] : i);
      PetscCheck((size_t)nroots == n && (size_t)maxleaf < nl, PETSC_COMM_SELF, PETSC_ERR_PLIB, "vpatch: a sum into owners on another layout than the level's");
      PetscCall(BufferReserve(sum_local_, space_, nl, "the ghost sums in double"));
      PetscCall(BufferReserve(sum_owned_, space_, n, "the ghost sums in double"));
      convert(space_, nl, l, sum_local_.data(), stream_, false);
      sum_owned_.zero(stream_);
      PetscCall(PetscSFReduceWithMemTypeBegin(sf, MPI_DOUBLE, memtype(space_), sum_local_.data(), memtype(space_), sum_owned_.data(), MPI_SUM));
      PetscCall(PetscSFReduceEnd(sf, MPI_DOUBLE, sum_local_.data(), sum_owned_.data(), MPI_SUM));
      convert(space_, n, sum_owned_.data(), g, stream_, true);
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  PetscCall(PetscSFReduceWithMemTypeBegin(sf, mpi_type<Number>(), memtype(space_), l, memtype(space_), g, op));
  PetscCall(PetscSFReduceEnd(sf, mpi_type<Number>(), l, g, op));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::zero(Number *x) const
{
  const size_t n = (size_t)box().owned_points();
  PetscFunctionBegin;
  if (space_ == MemSpace::Host) std::memset(x, 0, n * sizeof(Number));
  else if constexpr (have_cuda) cuda::memset_zero(x, n * sizeof(Number), stream_);
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::axpby(Number alpha, const Number *x, Number beta, Number *y) const
{
  const size_t n = (size_t)box().owned_points();
  PetscFunctionBegin;
  if (space_ == MemSpace::Host)
    for (size_t i = 0; i < n; ++i) y[i] = alpha * x[i] + beta * y[i];
  else if constexpr (have_cuda) cuda::axpby(n, alpha, x, beta, y, stream_);
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::copy(const Number *x, Number *y) const
{
  const size_t n = (size_t)box().owned_points();
  PetscFunctionBegin;
  if (space_ == MemSpace::Host) std::copy(x, x + n, y);
  else if constexpr (have_cuda) cuda::copy_on_device(y, x, n * sizeof(Number), stream_);
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::apply(const Number *x, Number *y)
{
  const Box &b = box();
  PetscFunctionBegin;
  const Number *xl = x;
  Number *yl = y;
  if (distributed()) {
    Number *w;
    PetscCall(local_work(0, &w));
    PetscCall(global_to_local_closure(x, w));
    xl = w;
    PetscCall(local_work(1, &yl));
  }
  // The device kernels write every local point of y; the host kernels accumulate.
  if (space_ == MemSpace::Host) {
    if (distributed()) local_[1].zero(stream_);
    else PetscCall(zero(y));
  }
  PetscCall(KernelBegin(space_));
  if (space_ == MemSpace::Host) dispatch(b.dim, b.degree, [&](auto D, auto K) { cpu::laplace_apply<D(), K()>(b, op_, xl, yl); });
  else if constexpr (have_cuda) cuda::laplace_apply(b, op_, xl, yl, stream_);
  PetscCall(KernelEnd(space_, laplace_flops(b)));
  if (distributed()) PetscCall(local_to_global_closure(yl, y));
  if (space_ == MemSpace::Host) cpu::copy_boundary(b, x, y);
  else if constexpr (have_cuda) cuda::copy_boundary(b, x, y, stream_);
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
bool LevelOps<Number>::residual_in_one_pass() const
{
  if constexpr (have_cuda && std::is_same_v<Number, double>)
    return space_ == MemSpace::Device && !distributed() && cuda::laplace_residual_converts((int)box().dim, (int)box().degree);
  return false;
}

template <typename Number>
template <typename Out>
PetscErrorCode LevelOps<Number>::residual_one_pass(const Number *bvec, const Number *x, Out *r, double *sum_squares)
{
  PetscFunctionBegin;
  PetscCheck(residual_in_one_pass(), PETSC_COMM_SELF, PETSC_ERR_SUP, "vpatch: this level forms its residual in two passes");
  if constexpr (have_cuda && std::is_same_v<Number, double>) {
    PetscCall(KernelBegin(space_));
    if (sum_squares) *sum_squares = cuda::laplace_residual_sum_squares(box(), op_, bvec, x, r, stream_);
    else cuda::laplace_residual(box(), op_, bvec, x, r, stream_);
    PetscCall(KernelEnd(space_, laplace_flops(box())));
    if (!sum_squares) cuda::residual_boundary(box(), bvec, x, r, stream_);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
bool LevelOps<Number>::residual_to_float_corrects() const
{
  if constexpr (have_cuda) return residual_in_one_pass() && cuda::laplace_residual_corrects_faster((int)box().dim, (int)box().degree);
  return false;
}

template <typename Number>
PetscErrorCode LevelOps<Number>::corrected_residual_to_float(const Number *bvec, const Number *x, const float *c, Number *x_out, float *r, double *sum_squares)
{
  PetscFunctionBegin;
  PetscCheck(residual_to_float_corrects() && x_out != x, PETSC_COMM_SELF, PETSC_ERR_SUP, "vpatch: this level adds no correction in its residual's pass");
  if constexpr (have_cuda && std::is_same_v<Number, double>) {
    PetscCall(KernelBegin(space_));
    *sum_squares = cuda::laplace_residual_sum_squares(box(), op_, bvec, x, r, stream_, c, x_out);
    PetscCall(KernelEnd(space_, laplace_flops(box())));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::residual(const Number *bvec, const Number *x, Number *r, bool restricted)
{
  PetscFunctionBegin;
  if (residual_in_kernel()) { // one pass over r: the operator kernel subtracts from b
    if constexpr (have_cuda) {
      PetscCall(KernelBegin(space_));
      cuda::laplace_residual(box(), op_, bvec, x, r, stream_); // (every point written, finite for finite b, x)
      PetscCall(KernelEnd(space_, laplace_flops(box())));
      if (!restricted) cuda::residual_boundary(box(), bvec, x, r, stream_);
    }
  } else {
    PetscCall(apply(x, r));
    PetscCall(axpby(1, bvec, -1, r));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::diagonal(Number *d)
{
  const Box &b = box();
  PetscFunctionBegin;
  Number *dl = d;
  if (distributed()) {
    PetscCall(local_work(1, &dl));
    local_[1].zero(stream_);
  } else PetscCall(zero(d));
  if (space_ == MemSpace::Host) dispatch(b.dim, b.degree, [&](auto D, auto K) { cpu::laplace_diagonal<D(), K()>(b, op_, dl); });
  else if constexpr (have_cuda) cuda::laplace_diagonal(b, op_, dl, stream_);
  if (distributed()) PetscCall(local_to_global_closure(dl, d));
  if (space_ == MemSpace::Host) cpu::set_boundary(b, Number(1), d);
  else if constexpr (have_cuda) cuda::set_boundary(b, Number(1), d, stream_);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One color of corrections: x += damping * sum_{j in color} R_j^T A_j^{-1} r_j, where x is
// owned and the patches' residuals are given: the global residual (Global kernel, additive)
// or, from zero, bl (ghosted where the level is distributed). On one rank also the local
// residuals (in place); a distributed level sweeps those in sweep_in_place.
template <typename Number>
PetscErrorCode LevelOps<Number>::color_step(const SmootherConfig &cfg, int color, const Number *bl, Number *x, bool x_zero)
{
  const Box &b = box();
  const bool global = !x_zero && (cfg.kernel == SmootherKernel::Global || cfg.type == CompositeType::Additive);
  const PatchResidual mode = global || x_zero ? PatchResidual::Given : PatchResidual::Local;
  PetscFunctionBegin;
  PetscCheck(!distributed() || mode == PatchResidual::Given, PETSC_COMM_SELF, PETSC_ERR_PLIB, "vpatch: local residuals on a distributed level sweep in place");
  const Number *rhs = bl;
  Number *out = x;
  if (global) { // rhs = the global residual, ghosted
    Number *r = owned_work_.data();
    PetscCall(residual(bl, x, r)); // bl is the owned b on this path (see smooth)
    rhs = r;
    if (distributed()) {
      Number *w;
      PetscCall(local_work(0, &w));
      PetscCall(global_to_local(r, w));
      rhs = w;
    }
  }
  if (distributed()) {
    PetscCall(local_work(1, &out));
    local_[1].zero(stream_);
  }
  PetscCall(run_patches(b, cfg, mode, color, rhs, x, out));
  if (distributed()) PetscCall(local_to_global_add(out, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The patches of one color (all: color < 0) on arrays of b's local layout, logged with the
// flops of the rank's own patches (b's halo patches repeat a neighbour's). The Boundary
// kernel assigns x_I = A_II^{-1} (b_I - A_IB x_B): only in place, undamped and from a
// residual of its own; else Fused runs.
template <typename Number>
PetscErrorCode LevelOps<Number>::run_patches(const Box &b, const SmootherConfig &cfg, PatchResidual mode, int color, const Number *rhs, const Number *x,
                                             Number *out)
{
  SmootherKernel kernel = cfg.kernel;
  if (kernel == SmootherKernel::Boundary && (out != x || cfg.damping != 1.0 || mode == PatchResidual::Given)) kernel = SmootherKernel::Fused;
  const Number scale = (Number)cfg.damping;
  PetscFunctionBegin;
  PetscCall(KernelBegin(space_));
  if (space_ == MemSpace::Host)
    dispatch(b.dim, b.degree, [&](auto D, auto K) { cpu::patch_correct<D(), K()>(b, patch_, cfg.solver, mode, color, scale, rhs, x, out); });
  else if constexpr (have_cuda) cuda::patch_correct(b, patch_, cfg.solver, mode, color, scale, rhs, x, out, kernel, stream_);
  PetscCall(KernelEnd(space_, patch_flops(box(), mode, cfg.solver, color)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Colors in turn, in place on arrays of b's local layout, without ghost updates between
// them (the first from zero where given_first); logged with the flops of the rank's own
// patches. On the device one call (k = 1 pairs colors c, c ^ 1 in one launch).
template <typename Number>
PetscErrorCode LevelOps<Number>::sweep_colors(const Box &b, const SmootherConfig &cfg, const int *colors, int ncolors, bool given_first,
                                              const Number *rhs, Number *x)
{
  auto mode = [&](int i) { return given_first && i == 0 ? PatchResidual::Given : PatchResidual::Local; };
  PetscFunctionBegin;
  if (space_ == MemSpace::Host) {
    for (int i = 0; i < ncolors; ++i) PetscCall(run_patches(b, cfg, mode(i), colors[i], rhs, x, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  double flops = 0;
  for (int i = 0; i < ncolors; ++i) flops += patch_flops(box(), mode(i), cfg.solver, colors[i]);
  PetscCall(KernelBegin(space_));
  if constexpr (have_cuda) cuda::patch_sweep(b, patch_, cfg.solver, mode(0), colors, ncolors, (Number)cfg.damping, rhs, x, cfg.kernel, stream_);
  PetscCall(KernelEnd(space_, flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A multiplicative sweep of a distributed level in place on the sweep layout
// (sweep_halo.hpp): b and x copied in and their ghosts updated (x zeroed instead from
// zero), the colors in turn, the owned points copied out. A color's patches read, beyond the
// points this rank computes itself, only ghosts that lie across a rank boundary in a direction
// where the color's parity differs from that of the colors changing them (same parity there:
// the patches' vertices coincide in that direction, and both ranks run the shared ones on the
// same inputs). So the ghosts are updated before a color only where its parities in the
// directions split between ranks differ from the previous color's (all colors since the last
// update share those): a symmetric 3D step over ranks split in z updates twice, not 15 times.
template <typename Number>
PetscErrorCode LevelOps<Number>::sweep_in_place(const SmootherConfig &cfg, const std::vector<int> &order, const Number *bvec, Number *x,
                                                bool zero_guess)
{
  const SweepHalo *h;
  PetscFunctionBegin;
  PetscCall(LevelGetSweepHalo(*level_, &h));
  const Box &sb = h->box;
  Number *xs, *bs;
  PetscCall(local_work(0, &xs));
  PetscCall(local_work(2, &bs));
  PetscCheck(local_[0].size() >= (size_t)sb.local_points() && local_[2].size() >= (size_t)sb.local_points(), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "vpatch: the work arrays were sized before the level's sweep halo existed");
  auto copy_in = [&](const Number *owned, Number *local) -> PetscErrorCode {
    PetscFunctionBegin;
    copy_owned(sb, true, owned, local);
    PetscCall(bcast(h->sf, local, local));
    PetscFunctionReturn(PETSC_SUCCESS);
  };
  PetscCall(copy_in(bvec, bs));
  if (zero_guess) local_[0].zero(stream_);
  else PetscCall(copy_in(x, xs));
  unsigned split = 0; // the directions with rank boundaries, as color bits
  for (PetscInt d = 0; d < box().dim; ++d)
    if (level_->cell_ranges[d].size() > 2) split |= 1u << d;
  for (size_t i = 0, next; i < order.size(); i = next) { // the colors between two ghost updates in one call
    if (i > 0) PetscCall(bcast(h->sf, xs, xs)); // the ghosts from their owners, in place
    for (next = i + 1; next < order.size() && !((order[next] ^ order[next - 1]) & split); ++next) {}
    PetscCall(sweep_colors(sb, cfg, order.data() + i, (int)(next - i), zero_guess && i == 0, bs, xs));
  }
  copy_owned(sb, false, xs, x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
void LevelOps<Number>::copy_owned(const Box &b, bool to_local, const Number *src, Number *dst, bool add) const
{
  if (space_ == MemSpace::Host) cpu::copy_owned(b, to_local, src, dst, add);
  else if constexpr (have_cuda) cuda::copy_owned(b, to_local, src, dst, stream_, add);
}

template <typename Number>
PetscErrorCode LevelOps<Number>::smooth(const SmootherConfig &cfg, const Number *bvec, Number *x, bool zero_guess, bool boundary_set)
{
  const Box &b = box();
  const int ncolors = 1 << b.dim;
  const bool global = cfg.kernel == SmootherKernel::Global || cfg.type == CompositeType::Additive;
  PetscFunctionBegin;
  if (global) PetscCall(BufferReserve(owned_work_, space_, (size_t)b.owned_points(), "the global residual"));
  // The first step from zero of the global-residual kernels reads b on the patch interiors:
  // ghost it once per application.
  const Number *bl = bvec;
  if (global && zero_guess && distributed()) {
    Number *w;
    PetscCall(local_work(2, &w));
    PetscCall(global_to_local(bvec, w));
    bl = w;
  }
  if (cfg.type == CompositeType::Additive) PetscCall(color_step(cfg, -1, zero_guess ? bl : bvec, x, zero_guess));
  else {
    std::vector<int> order;
    if (cfg.sweep != SweepType::Backward)
      for (int c = 0; c < ncolors; ++c) order.push_back(c);
    if (cfg.sweep != SweepType::Forward)
      for (int c = ncolors - 1; c >= 0; --c) order.push_back(c);
    if (distributed() && !global) PetscCall(sweep_in_place(cfg, order, bvec, x, zero_guess));
    else if (space_ == MemSpace::Device && !global) PetscCall(sweep_colors(b, cfg, order.data(), (int)order.size(), zero_guess, bvec, x));
    else
      for (size_t i = 0; i < order.size(); ++i) {
        const bool x_zero = zero_guess && i == 0;
        PetscCall(color_step(cfg, order[i], global && !x_zero ? bvec : bl, x, x_zero));
      }
  }
  if (boundary_set) PetscFunctionReturn(PETSC_SUCCESS);
  if (space_ == MemSpace::Host) cpu::copy_boundary(b, bvec, x);
  else if constexpr (have_cuda) cuda::copy_boundary(b, bvec, x, stream_);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// ---------------------------------------------------------------------------- TransferOps
template <typename Number>
TransferOps<Number>::TransferOps(LevelOps<Number> &coarse, LevelOps<Number> &fine) : coarse_(coarse), fine_(fine)
{
  LevelTables<Number> t((int)coarse.level().dim, *coarse.level().element, *coarse.level().matrices, false);
  if (coarse.space() == MemSpace::Host) {
    p_ = Buffer<Number>(MemSpace::Host, t.prolongation);
    r_ = Buffer<Number>(MemSpace::Host, t.restriction);
  } else {
    p_ = Buffer<Number>(MemSpace::Device, t.prolongation);
    r_ = Buffer<Number>(MemSpace::Device, t.restriction);
  }
  view_ = {p_.data(), r_.data()};
}

template <typename Number>
PetscErrorCode TransferOps<Number>::prolongate(const Number *xc, Number *xf, bool add)
{
  const Box &cb = coarse_.box(), &fb = fine_.box();
  PetscFunctionBegin;
  const Number *xcl = xc;
  if (coarse_.distributed()) {
    Number *w;
    PetscCall(coarse_.local_work(0, &w));
    PetscCall(coarse_.global_to_local_closure(xc, w));
    xcl = w;
  }
  PetscCall(KernelBegin(fine_.space()));
  if (fine_.space() == MemSpace::Host) dispatch(cb.dim, cb.degree, [&](auto D, auto K) { cpu::prolongate<D(), K()>(cb, fb, view_, xcl, xf, add); });
  else if constexpr (have_cuda) cuda::prolongate(cb, fb, view_, xcl, xf, fine_.stream(), add);
  if (!add) { // the points the kernels leave
    if (fine_.space() == MemSpace::Host) cpu::set_boundary(fb, Number(0), xf);
    else if constexpr (have_cuda) cuda::set_boundary(fb, Number(0), xf, fine_.stream());
  }
  PetscCall(KernelEnd(fine_.space(), transfer_flops(cb)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode TransferOps<Number>::restrict(const Number *xf, Number *xc)
{
  const Box &cb = coarse_.box(), &fb = fine_.box();
  PetscFunctionBegin;
  Number *xcl = xc;
  if (!coarse_.distributed()) PetscCall(coarse_.zero(xc));
  else {
    PetscCall(coarse_.local_work(1, &xcl));
    if (coarse_.space() == MemSpace::Host) std::memset(xcl, 0, sizeof(Number) * (size_t)cb.local_points());
    else if constexpr (have_cuda) cuda::memset_zero(xcl, sizeof(Number) * (size_t)cb.local_points(), coarse_.stream());
  }
  PetscCall(KernelBegin(fine_.space()));
  if (fine_.space() == MemSpace::Host) dispatch(cb.dim, cb.degree, [&](auto D, auto K) { cpu::restrict_add<D(), K()>(cb, fb, view_, xf, xcl); });
  else if constexpr (have_cuda) cuda::restrict_add(cb, fb, view_, xf, xcl, coarse_.stream());
  PetscCall(KernelEnd(fine_.space(), transfer_flops(cb)));
  if (coarse_.distributed()) PetscCall(coarse_.local_to_global_closure(xcl, xc));
  if (coarse_.space() == MemSpace::Host) cpu::set_boundary(cb, Number(0), xc);
  else if constexpr (have_cuda) cuda::set_boundary(cb, Number(0), xc, coarse_.stream());
  PetscFunctionReturn(PETSC_SUCCESS);
}

template class Buffer<double>;
template class Buffer<float>;
template class Buffer<int>;
template class LevelOps<double>;
template class LevelOps<float>;
template PetscErrorCode LevelOps<double>::residual_one_pass(const double *, const double *, float *, double *);
template PetscErrorCode LevelOps<double>::residual_one_pass(const double *, const double *, double *, double *);
template class TransferOps<double>;
template class TransferOps<float>;

} // namespace vpatch
