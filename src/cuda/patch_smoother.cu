// patch_correct: argument checks and runtime (dim, degree) dispatch to
// detail::launch_patch<dim, k, Number>, instantiated in patch_smoother_{2d,3d_*}.cu.
#include "../core/dispatch.hpp"
#include "common.cuh"
#include <stdexcept>

namespace vpatch {
namespace cuda {
namespace detail {
template <int dim, int k, typename Number>
void launch_patch(const Box &box, PatchView<Number> p, LocalSolver solver, PatchResidual mode, int color, Number scale,
                  const Number *rhs, const Number *x, Number *out, SmootherKernel kernel, cudaStream_t stream);
} // namespace detail

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

} // namespace cuda
} // namespace vpatch
