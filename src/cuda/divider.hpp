// Division by a divisor fixed at launch, for the kernels that split a linear block or
// thread index into (x, y, z) (host and device; no CUDA headers). A runtime integer
// division is about twenty instructions per thread (plus a 64-bit check where the
// dividend is a long); with the multiplier prepared on the host it is a high multiply and
// a shift (Granlund and Montgomery, "Division by invariant integers using multiplication",
// 1994): for d >= 2, l = ceil(log2 d), m = ceil(2^(31 + l) / d) < 2^32 and every
// 0 <= n < 2^31, n / d = floor(n m / 2^(31 + l)).
#pragma once
#include <cstdint>
#include <stdexcept>

#if defined(__CUDACC__)
#define VPATCH_DIVIDER_HD __host__ __device__
#else
#define VPATCH_DIVIDER_HD
#endif

namespace vpatch {
namespace cuda {

struct Divider {
  static constexpr std::int64_t max_dividend = 0x7fffffff; // dividends must lie in [0, 2^31)
  unsigned d = 1, m = 0, s = 0;

  Divider() = default;
  explicit Divider(long divisor)
  {
    if (divisor < 1 || divisor > max_dividend) throw std::invalid_argument("vpatch cuda: Divider needs 1 <= d < 2^31");
    d = (unsigned)divisor;
    if (d == 1) return;
    unsigned l = 0;
    while ((1ull << l) < d) ++l;
    m = (unsigned)(((1ull << (31 + l)) + d - 1) / d);
    s = l - 1;
  }
  VPATCH_DIVIDER_HD unsigned quotient(unsigned n) const
  {
#if defined(__CUDA_ARCH__)
    const unsigned hi = __umulhi(n, m);
#else
    const unsigned hi = (unsigned)(((std::uint64_t)n * m) >> 32);
#endif
    return d == 1 ? n : hi >> s;
  }
  // n = q d + r
  VPATCH_DIVIDER_HD void divmod(unsigned n, unsigned &q, unsigned &r) const
  {
    q = quotient(n);
    r = n - q * d;
  }
};

// g = a + n0 (b + n1 c) for 0 <= g < 2^31.
VPATCH_DIVIDER_HD inline void split3(unsigned g, const Divider &n0, const Divider &n1, int &a, int &b, int &c)
{
  unsigned q, r, q2, r2;
  n0.divmod(g, q, r);
  n1.divmod(q, q2, r2);
  a = (int)r;
  b = (int)r2;
  c = (int)q2;
}

} // namespace cuda
} // namespace vpatch
