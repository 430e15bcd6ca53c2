// CUDA launchers of the level kernels: the same functions as src/core/cpu/kernels_cpu.hpp
// on device arrays, enqueued on the given stream (a cudaStream_t). Runtime dim/degree are
// dispatched to kernels templated on <dim, degree, Number>. No PETSc types.
#pragma once
#include "../core/boundary_lift.hpp"
#include "../core/layout.hpp"
#include "../core/level_tables.hpp"
#include <cstddef>

namespace vpatch {
namespace cuda {

// Smoother kernel variants (paper section 3.1.3 and 4.1).
enum class SmootherKernel {
  Global,   // residual by the operator kernel, then local solves (PatchResidual::Given)
  Fused,    // local residual and local solve in one kernel, conflict-free layout
  Boundary, // x_I = A_II^{-1} (b_I - A_IB x_B): never reads x_I (in place only)
  Basic     // Fused without the conflict-free/linear-index optimizations, for comparison
};

void *device_malloc(std::size_t bytes);
void device_free(void *p);
void copy_to_device(void *dst, const void *src, std::size_t bytes);
// in the stream's order (after its work; its later work sees the data); return when copied
void copy_to_device(void *dst, const void *src, std::size_t bytes, void *stream);
void copy_to_host(void *dst, const void *src, std::size_t bytes, void *stream);
void memset_zero(void *p, std::size_t bytes, void *stream);
void copy_on_device(void *dst, const void *src, std::size_t bytes, void *stream); // (asynchronous in the stream)

// Work enqueued by the host recorded once into a CUDA graph (stream capture on a stream of
// its own) and replayed by one launch on any stream: for a sequence of small kernels whose
// arguments do not change (the coarse levels of a cycle or of full multigrid), one launch instead of one per
// kernel. begin() starts a capture and returns the stream to enqueue the work on; end()
// instantiates it (false, nothing kept, if the capture failed: an operation that cannot be
// captured ran on that stream).
class CapturedGraph {
public:
  CapturedGraph() = default;
  CapturedGraph(const CapturedGraph &) = delete;
  CapturedGraph &operator=(const CapturedGraph &) = delete;
  ~CapturedGraph();
  void *begin();
  bool end();
  bool ready() const { return exec_ != nullptr; }
  void launch(void *stream) const;
  void reset(); // drops the graph (keeps the capture stream)

private:
  void *stream_ = nullptr, *graph_ = nullptr, *exec_ = nullptr; // cudaStream_t, cudaGraph_t, cudaGraphExec_t
};

// y_local = sum over owned cells A_K x_local (x zero on the domain boundary; every local
// point is written, points outside the owned cells' closure get 0).
template <typename Number>
void laplace_apply(const Box &box, OperatorView<Number> op, const Number *x, Number *y, void *stream);
// y_local = b_local - sum over owned cells A_K x_local in one pass (laplace_apply, then
// y = b - y); the boundary rows of the residual come from residual_boundary. Out = float
// from Number = double (rounded at the store) where laplace_residual_converts(dim, degree).
template <typename Number, typename Out = Number>
void laplace_residual(const Box &box, OperatorView<Number> op, const Number *b, const Number *x, Out *y, void *stream);
bool laplace_residual_converts(int dim, int degree);
// r = b - A x, in Out = float (rounded at the store) or double, at every owned point of a box
// without ghosts (laplace_residual, then residual_boundary), where
// laplace_residual_converts(dim, degree), and sum_i r_i^2 over the owned points of the stored
// values, in double in a fixed order: by the kernels that write r where tuning.hpp's
// residual_squares_in_kernel says so, else by a pass over r. Returns once the sum is known.
// With a float correction c (Out = float, where laplace_residual_corrects(dim, degree)):
// x_out = x + c (every owned point; x_out apart from x) and r the residual of x_out, in the
// same pass.
template <typename Out>
double laplace_residual_sum_squares(const Box &box, OperatorView<double> op, const double *b, const double *x, Out *r, void *stream,
                                    const float *c = nullptr, double *x_out = nullptr);
bool laplace_residual_corrects(int dim, int degree);
bool laplace_residual_corrects_faster(int dim, int degree); // where the one pass is the faster choice (tuning.hpp corrected_residual)
// d_local += cell contributions to diag(A).
template <typename Number>
void laplace_diagonal(const Box &box, OperatorView<Number> op, Number *d, void *stream);
// out_I += scale * A_j^{-1} r_j for every patch j of the box and color (see cpu::patch_correct).
// Boundary requires out == x and scale == 1 (it assigns x_I).
template <typename Number>
void patch_correct(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual mode, int color, Number scale,
                   const Number *rhs, const Number *x, Number *out, SmootherKernel kernel, void *stream);
// A multiplicative sweep in place (x is also the output; the ghosts of a local array are
// not updated between colors): patch_correct for colors[0], ..., colors[ncolors - 1] in
// turn, the first in mode `first` (Given: x is zero on entry), the others Local; Boundary
// falls back to Fused where it cannot assign (Given, scale != 1). Degree 1 (Fused, Boundary),
// where the local array holds whole x rows: two consecutive colors that differ in the x
// parity only run as one launch (the same updates in the same order).
template <typename Number>
void patch_sweep(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual first, const int *colors, int ncolors,
                 Number scale, const Number *rhs, Number *x, SmootherKernel kernel, void *stream);
// fine_owned += P coarse_local (add), or = P coarse_local (every owned point off the domain
// boundary written, boundary points left as they are: see cpu::prolongate).
template <typename Number>
void prolongate(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xc, Number *xf, void *stream, bool add);
// coarse_local += P^T fine_owned.
template <typename Number>
void restrict_add(const Box &coarse, const Box &fine, TransferView<Number> t, const Number *xf, Number *xc, void *stream);
// Owned boundary points: dst = src, dst = value, or r = b - x (the identity rows of b - A x).
template <typename Number>
void copy_boundary(const Box &box, const Number *src, Number *dst, void *stream);
template <typename Number, typename Out = Number>
void residual_boundary(const Box &box, const Number *b, const Number *x, Out *r, void *stream);
// The same from double (into float or double), each block of the launch also writing the sum
// of the squares of its values to partial[block] (a point on several faces counted once); the
// launch's block count:
long residual_boundary_blocks(const Box &box);
template <typename Out>
void residual_boundary(const Box &box, const double *b, const double *x, Out *r, double *partial, void *stream);
template <typename Number>
void set_boundary(const Box &box, Number value, Number *dst, void *stream);
// The lift of Dirichlet values (core/boundary_lift.hpp): faces = v at the owned boundary
// points (other entries untouched); y = the lift at every owned point.
template <typename Number>
void pack_boundary_faces(const Box &box, const Number *v, Number *faces, void *stream);
template <typename Number>
void boundary_lift(const Box &box, const LiftGeometry &geo, const Number *faces, Number *y, void *stream);
// The owned points between an owned array and a ghosted local array (see cpu::copy_owned).
template <typename Number>
void copy_owned(const Box &box, bool to_local, const Number *src, Number *dst, void *stream, bool add = false);

} // namespace cuda
} // namespace vpatch
