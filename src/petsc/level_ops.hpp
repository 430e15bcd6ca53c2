// The numerical operations of one level on raw owned arrays, in a Number type and a memory
// space: operator, diagonal, smoother sweeps and grid transfers. They run the CPU kernels
// (host) or the CUDA launchers (device) and exchange ghost points along the level's PetscSFs
// (PETSc's, with the Number's MPI type, or between the devices of one host through CUDA IPC),
// so the same code serves the double PETSc objects (Mat, PC) and the single-precision
// multigrid cycle.
#pragma once
#include "../core/level_tables.hpp"
#include "../cuda/kernels_cuda.hpp"
#include "level.hpp"
#include <memory>
#include <type_traits>

namespace vpatch {

struct SweepHalo;
template <typename Number>
class PeerExchange;
enum class MemSpace { Host, Device };
// whether the device branches are compiled (a PETSc with CUDA)
#if defined(VPATCH_HAVE_CUDA)
inline constexpr bool have_cuda = true;
#else
inline constexpr bool have_cuda = false;
#endif
inline PetscMemType memtype(MemSpace s) { return s == MemSpace::Host ? PETSC_MEMTYPE_HOST : PETSC_MEMTYPE_DEVICE; }
template <typename Number>
MPI_Datatype mpi_type()
{
  static_assert(std::is_same_v<Number, float> || std::is_same_v<Number, double>, "vpatch levels are float or double");
  return std::is_same_v<Number, float> ? MPI_FLOAT : MPI_DOUBLE;
}

enum class SweepType { Forward, Backward, Symmetric };
enum class CompositeType { Multiplicative, Additive };
using cuda::SmootherKernel;

struct SmootherConfig {
  SweepType sweep = SweepType::Forward;
  CompositeType type = CompositeType::Multiplicative;
  double damping = 1.0;
  LocalSolver solver = LocalSolver::FDM;
  SmootherKernel kernel = SmootherKernel::Fused;
};

// Flop counts of the kernels (for PetscLogFlops and the roofline report).
double laplace_flops(const Box &box);
double patch_flops(const Box &box, PatchResidual mode, LocalSolver solver, int color); // color < 0: all
double transfer_flops(const Box &coarse);

// A buffer of Numbers in a memory space.
template <typename Number>
class Buffer {
public:
  Buffer() = default;
  Buffer(MemSpace s, size_t n);
  Buffer(MemSpace s, const std::vector<Number> &host);
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer(Buffer &&o) noexcept { swap(o); }
  Buffer &operator=(Buffer &&o) noexcept { swap(o); return *this; }
  Number *data() const { return ptr_; }
  size_t size() const { return n_; }
  void zero(void *stream);

private:
  void swap(Buffer &o) { std::swap(ptr_, o.ptr_); std::swap(n_, o.n_); std::swap(space_, o.space_); }
  Number *ptr_ = nullptr;
  size_t n_ = 0;
  MemSpace space_ = MemSpace::Host;
};

// buf = n entries in space s where it is empty (work arrays allocated on first use): a failed
// allocation is a PETSc error (PETSC_ERR_MEM) naming what and how much, not an exception.
template <typename T>
PetscErrorCode BufferReserve(Buffer<T> &buf, MemSpace s, size_t n, const char *what);

// y = (To) x, or y = (To) (y + x) with add (in the wider type: one rounding), on n entries
// in memory space s (the precision conversions of PCVPATCHMG).
template <typename From, typename To>
void convert(MemSpace s, size_t n, const From *x, To *y, void *stream, bool add = false);
// y = (float) (x - ax) (ax null: (float) x) and, with squares, sum_i y_i^2 in one pass (else 0):
// the two-pass float residual's difference b - A x or conversion of r, and its norm
double difference_to_float(MemSpace s, size_t n, const double *x, const double *ax, float *y, void *stream, bool squares);

template <typename Number>
class LevelOps {
public:
  LevelOps(std::shared_ptr<Level> level, MemSpace space, bool with_dense);
  ~LevelOps();
  const Level &level() const { return *level_; }
  const Box &box() const { return level_->box; }
  MemSpace space() const { return space_; }
  void set_stream(void *stream) { stream_ = stream; }
  void *stream() const { return stream_; }
  bool distributed() const { return !level_->box.local_is_owned(); }

  // All arrays are owned (global-vector) arrays in this level's memory space.
  PetscErrorCode apply(const Number *x, Number *y);                  // y = A x
  // r = b - A x; restricted: r only goes to the restriction, which takes fine boundary values as
  // zero, so the boundary rows may hold any finite values (the device skips their pass).
  PetscErrorCode residual(const Number *b, const Number *x, Number *r, bool restricted = false);
  // Whether residual() forms b - A x in the operator kernel's pass (one rank's device level);
  // else it applies A (on a distributed level: the ghost exchange, the rank's cells, the reverse
  // exchange), then takes b - A x in a pass of its own.
  bool residual_in_kernel() const { return space_ == MemSpace::Device && !distributed(); }
  // r = b - A x from double inputs in one pass of the device operator, where
  // residual_in_one_pass(): a single-rank level on the device whose operator is the gather or
  // the cell-column kernel. Out = float (rounded at the store: the mixed full multigrid's
  // residuals of the double level solutions, without a double r) or double. With sum_squares:
  // also sum_i r_i^2 over the owned points of the stored values, in double, in the same passes
  // (the Richardson tests' norms; returns once it is known).
  bool residual_in_one_pass() const;
  template <typename Out>
  PetscErrorCode residual_one_pass(const Number *b, const Number *x, Out *r, double *sum_squares = nullptr);
  // The float one with sum_squares for x_out = x + c (c a float correction; x_out written, apart
  // from x) in the same pass, where residual_to_float_corrects() (the gather kernel's levels
  // where that pass is faster than the two: tuning.hpp corrected_residual).
  bool residual_to_float_corrects() const;
  PetscErrorCode corrected_residual_to_float(const Number *b, const Number *x, const float *c, Number *x_out, float *r, double *sum_squares);
  PetscErrorCode diagonal(Number *d);                                // d = diag(A)
  // One application; zero_guess: x is zero on entry, so the first color's patch residuals
  // are b itself (PatchResidual::Given: no operator, no closure reads; the same numbers).
  // The patches change interior points only; x's boundary values are then set to b's (the
  // identity rows), unless boundary_set: they are b's already (a pass over the faces saved).
  PetscErrorCode smooth(const SmootherConfig &cfg, const Number *b, Number *x, bool zero_guess = false, bool boundary_set = false);
  PetscErrorCode axpby(Number alpha, const Number *x, Number beta, Number *y) const;
  PetscErrorCode zero(Number *x) const;
  PetscErrorCode copy(const Number *x, Number *y) const; // y = x (owned arrays)

  // Ghost exchange: local = global (owned + ghosts); global += local (sums into owners).
  PetscErrorCode global_to_local(const Number *g, Number *l) const;
  PetscErrorCode local_to_global_add(const Number *l, Number *g);
  // The same for the operator, its diagonal and the transfers: l gets g's owned points and
  // the ghosts in the closure of the rank's cells; g = the owners' sums of l over that closure.
  PetscErrorCode global_to_local_closure(const Number *g, Number *l);
  PetscErrorCode local_to_global_closure(const Number *l, Number *g);
  PetscErrorCode local_work(int which, Number **w); // ghosted scratch arrays 0..2 (the sweep's x and b: 0, 2), allocated on first use
  // The exchanges of any PetscSF of this level's arrays (device arrays between the ranks of
  // one host through CUDA IPC, peer_exchange.hpp; else PetscSF): leaves = their roots;
  // roots += the sums of their leaves, or with replace roots = their leaf (one per root).
  PetscErrorCode bcast(PetscSF sf, const Number *roots, Number *leaves) const;
  PetscErrorCode reduce(PetscSF sf, const Number *leaves, Number *roots, bool replace);
  // Sets up now (collectively; else on first use, inside a solve) sf's exchange, or those that
  // the operator, the transfers and smoothing with cfg use on a distributed level; ipc: whether
  // they go through CUDA IPC.
  PetscErrorCode prepare_exchange(PetscSF sf, bool *ipc) const;
  PetscErrorCode prepare_exchanges(const SmootherConfig &cfg, bool *ipc) const;

private:
  PetscErrorCode color_step(const SmootherConfig &cfg, int color, const Number *bl, Number *x, bool x_zero);
  PetscErrorCode run_patches(const Box &b, const SmootherConfig &cfg, PatchResidual mode, int color, const Number *rhs, const Number *x, Number *out);
  PetscErrorCode sweep_colors(const Box &b, const SmootherConfig &cfg, const int *colors, int ncolors, bool given_first, const Number *rhs, Number *x);
  PetscErrorCode sweep_in_place(const SmootherConfig &cfg, const std::vector<int> &order, const Number *b, Number *x, bool zero_guess);
  PetscErrorCode peer_exchange(PetscSF sf, PeerExchange<Number> **pe) const; // nullptr: PetscSF
  void copy_owned(const Box &b, bool to_local, const Number *src, Number *dst, bool add = false) const;
  std::shared_ptr<Level> level_;
  MemSpace space_;
  void *stream_ = nullptr;
  LevelTables<Number> host_tables_;
  Buffer<Number> t_mass_, t_stiff_, t_mrows_, t_krows_, t_s_, t_st_, t_lambda_, t_dense_;
  Buffer<Number> local_[3], owned_work_;
  // Float ghost sums through the device PetscSF in double (it has no MPI_SUM for MPI_FLOAT;
  // on the host it sums floats): the local array and the owners' sums
  Buffer<double> sum_local_, sum_owned_;
  // Device exchanges between the ranks of one host through CUDA IPC, per PetscSF of the level
  // (peer_exchange.hpp; made on its first exchange, collectively, hence mutable; nullptr where
  // PetscSF exchanges), released in reverse order of creation, the same on every rank
  mutable std::vector<std::pair<PetscSF, std::unique_ptr<PeerExchange<Number>>>> peers_;
  OperatorView<Number> op_{};
  PatchView<Number> patch_{};
};

template <typename Number>
class TransferOps {
public:
  TransferOps(LevelOps<Number> &coarse, LevelOps<Number> &fine);
  // xf += P xc (add), or xf = P xc (its boundary points zeroed: nothing of xf read)
  PetscErrorCode prolongate(const Number *xc, Number *xf, bool add);
  PetscErrorCode restrict(const Number *xf, Number *xc);       // xc = P^T xf

private:
  LevelOps<Number> &coarse_, &fine_;
  Buffer<Number> p_, r_;
  TransferView<Number> view_{};
};

} // namespace vpatch
