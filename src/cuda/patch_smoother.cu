// patch_correct: argument checks and runtime (dim, degree) dispatch to
// detail::launch_patch<dim, k, Number>, instantiated in patch_smoother_{2d,3d_*}.cu;
// patch_sweep: a multiplicative sweep over colors, k = 1 color pairs in one launch.
#include "../core/dispatch.hpp"
#include "common.cuh"
#include "tuning.hpp"
#include <stdexcept>

namespace vpatch {
namespace cuda {
namespace detail {
template <int dim, int k, typename Number>
void launch_patch(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual mode, int color, Number scale,
                  const Number *rhs, const Number *x, Number *out, SmootherKernel kernel, cudaStream_t stream);
template <int dim, typename Number>
bool launch_patch_pair(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual first, int color, Number scale,
                       const Number *rhs, Number *x, SmootherKernel kernel, cudaStream_t stream);
} // namespace detail

template <typename Number>
void patch_sweep(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual first, const int *colors, int ncolors,
                 Number scale, const Number *rhs, Number *x, SmootherKernel kernel, void *stream)
{
  if (kernel == SmootherKernel::Global) throw std::invalid_argument("vpatch cuda: patch_sweep needs a local-residual kernel");
  if (solver == LocalSolver::Dense && p.dense_inverse == nullptr)
    throw std::invalid_argument("vpatch cuda: LocalSolver::Dense without a dense inverse");
  // Boundary assigns x_I = delta: with a damping (scale != 1) the Fused kernel runs instead,
  // and from zero (Given) as well, except in a color pair, whose first half assigns onto zeros.
  // A color pair reads its x rows whole from the local array (not split between ranks).
  const bool whole_rows = box.gs[0] == 0 && box.gm[0] == box.n;
  const SmootherKernel unit = kernel == SmootherKernel::Boundary && scale != Number(1) ? SmootherKernel::Fused : kernel;
  for (int i = 0; i < ncolors; ++i) {
    const PatchResidual mode = i == 0 ? first : PatchResidual::Local;
    const bool pair = box.degree == 1 && whole_rows && color_pairs(box.patch_end(0) - box.patch_begin(0)) && kernel != SmootherKernel::Basic &&
                      i + 1 < ncolors && colors[i + 1] == (colors[i] ^ 1);
    if (pair && (box.dim == 2 ? detail::launch_patch_pair<2, Number>(box, p, solver, mode, colors[i], scale, rhs, x, unit, detail::to_stream(stream))
                              : detail::launch_patch_pair<3, Number>(box, p, solver, mode, colors[i], scale, rhs, x, unit, detail::to_stream(stream)))) {
      ++i;
      continue;
    }
    const SmootherKernel k = unit == SmootherKernel::Boundary && mode == PatchResidual::Given ? SmootherKernel::Fused : unit;
    patch_correct(box, p, solver, mode, colors[i], scale, rhs, x, x, k, stream);
  }
}

template <typename Number>
void patch_correct(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual mode, int color, Number scale,
                   const Number *rhs, const Number *x, Number *out, SmootherKernel kernel, void *stream)
{
  if (kernel == SmootherKernel::Boundary) {
    if (out != x || scale != Number(1) || mode != PatchResidual::Local || color < 0)
      throw std::invalid_argument("vpatch cuda: the Boundary smoother kernel requires out == x, scale == 1, "
                                  "PatchResidual::Local and a single color");
  }
  if (solver == LocalSolver::Dense && p.dense_inverse == nullptr)
    throw std::invalid_argument("vpatch cuda: LocalSolver::Dense without a dense inverse");
  if (kernel == SmootherKernel::Global) kernel = SmootherKernel::Fused; // same kernel; mode Given skips the residual
  dispatch(box.dim, box.degree, [&](auto d, auto k) {
    detail::launch_patch<decltype(d)::value, decltype(k)::value, Number>(box, p, solver, mode, color, scale, rhs, x, out,
                                                                         kernel, detail::to_stream(stream));
  });
}

template void patch_correct<float>(const Box &, PatchView<float>, LocalSolver, PatchResidual, int, float, const float *,
                                   const float *, float *, SmootherKernel, void *);
template void patch_correct<double>(const Box &, PatchView<double>, LocalSolver, PatchResidual, int, double, const double *,
                                    const double *, double *, SmootherKernel, void *);
template void patch_sweep<float>(const Box &, PatchView<float>, LocalSolver, PatchResidual, const int *, int, float, const float *,
                                 float *, SmootherKernel, void *);
template void patch_sweep<double>(const Box &, PatchView<double>, LocalSolver, PatchResidual, const int *, int, double,
                                  const double *, double *, SmootherKernel, void *);

} // namespace cuda
} // namespace vpatch
