// Sum-factorization primitives on small tensors (x fastest), shared by the CPU kernels.
// A tensor has extents e[0..2] (e[2] = 1 in 2D); contract() applies a 1D matrix along
// one direction, kron_sum_apply() a Kronecker sum sum_d M x .. x K_d x .. x M.
#pragma once

// The kernels call these with extents known at compile time (templates on dim and degree):
// inlined, the loops take them as constants. GCC left contract<float> out of line, a call
// through the PLT with runtime extents, and the float 3D Q1 residual ran 6x slower than the
// double one.
#if defined(__GNUC__)
  #define VPATCH_INLINE inline __attribute__((always_inline))
#else
  #define VPATCH_INLINE inline
#endif

namespace vpatch {

// out = A_dir in, with A (nr x e[dir], row-major); out has extents e with e[dir] = nr.
template <typename Number>
VPATCH_INLINE void contract(int dir, const int e[3], int nr, const Number *A, const Number *in, Number *out, bool add)
{
  const int nm = e[dir];
  const int stride = dir == 0 ? 1 : (dir == 1 ? e[0] : e[0] * e[1]);
  const int outer  = dir == 0 ? e[1] * e[2] : (dir == 1 ? e[2] : 1);
  const int inner  = stride;
  const int in_outer_stride = nm * stride, out_outer_stride = nr * stride;
  for (int o = 0; o < outer; ++o)
    for (int i = 0; i < inner; ++i) {
      const Number *src = in + o * in_outer_stride + i;
      Number *dst = out + o * out_outer_stride + i;
      for (int r = 0; r < nr; ++r) {
        Number s = 0;
        for (int m = 0; m < nm; ++m) s += A[r * nm + m] * src[m * stride];
        if (add) dst[r * stride] += s;
        else dst[r * stride] = s;
      }
    }
}

// out (nout^dim) = sum_d (M x .. x K_d x .. x M) in (nin^dim), with M, K nout x nin.
// work must hold 4 * max(nin, nout)^dim entries.
template <typename Number>
VPATCH_INLINE void kron_sum_apply(int dim, int nin, int nout, const Number *M, const Number *K, const Number *in, Number *out, Number *work)
{
  int n3 = nin > nout ? nin : nout;
  n3 = n3 * n3 * (dim == 3 ? n3 : 1);
  Number *a = work, *c = work + n3, *u = work + 2 * n3, *v = work + 3 * n3;
  int e[3] = {nin, nin, dim == 3 ? nin : 1};
  contract(0, e, nout, M, in, a, false);
  contract(0, e, nout, K, in, c, false);
  e[0] = nout;
  if (dim == 2) {
    contract(1, e, nout, M, c, out, false);
    contract(1, e, nout, K, a, out, true);
    return;
  }
  contract(1, e, nout, M, c, u, false);
  contract(1, e, nout, K, a, u, true);
  contract(1, e, nout, M, a, v, false);
  e[1] = nout;
  contract(2, e, nout, M, u, out, false);
  contract(2, e, nout, K, v, out, true);
}

// out (nout^dim) = (A x A [x A]) in (nin^dim): the same 1D matrix in every direction.
template <typename Number>
VPATCH_INLINE void tensor_apply(int dim, int nin, int nout, const Number *A, const Number *in, Number *out, Number *work)
{
  int n3 = nin > nout ? nin : nout;
  n3 = n3 * n3 * (dim == 3 ? n3 : 1);
  Number *a = work, *b = work + n3;
  int e[3] = {nin, nin, dim == 3 ? nin : 1};
  contract(0, e, nout, A, in, a, false);
  e[0] = nout;
  if (dim == 2) {
    contract(1, e, nout, A, a, out, false);
    return;
  }
  contract(1, e, nout, A, a, b, false);
  e[1] = nout;
  contract(2, e, nout, A, b, out, false);
}

} // namespace vpatch
