// kernels.divider: the launch-constant division of the CUDA kernels (src/cuda/divider.hpp)
// equals C++ integer division for divisors 1..4096 and selected large ones, at dividends
// near 0, near multiples of the divisor and near 2^31 - 1, and at pseudo-random ones.
#include "cuda/divider.hpp"
#include <cstdio>
#include <vector>

int main()
{
  using vpatch::cuda::Divider;
  long failures = 0, checks = 0;
  std::vector<long> divisors;
  for (long d = 1; d <= 4096; ++d) divisors.push_back(d);
  for (long d : {65535L, 65536L, 65537L, 1000003L, (1L << 30) - 1, 1L << 30, (1L << 30) + 1, 0x7fffffffL}) divisors.push_back(d);
  unsigned long long state = 88172645463325252ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state % 0x80000000ull);
  };
  for (long d : divisors) {
    const Divider div(d);
    std::vector<unsigned> ns;
    for (unsigned n = 0; n < 64; ++n) ns.push_back(n);
    for (unsigned n = 0x7fffffffu - 64; n <= 0x7fffffffu - 1; ++n) ns.push_back(n);
    ns.push_back(0x7fffffffu - 1);
    for (long j = 1; j < 64; ++j)
      for (long o = -1; o <= 1; ++o) {
        const long n = j * d + o;
        if (n >= 0 && n < 0x7fffffffL) ns.push_back((unsigned)n);
      }
    for (int j = 0; j < 256; ++j) ns.push_back(next());
    for (unsigned n : ns) {
      unsigned q, r;
      div.divmod(n, q, r);
      ++checks;
      if (q != n / (unsigned)d || r != n % (unsigned)d) {
        if (++failures <= 10) std::printf("FAIL d=%ld n=%u: %u r %u, expected %u r %u\n", d, n, q, r, n / (unsigned)d, n % (unsigned)d);
      }
    }
  }
  bool threw = false;
  try {
    Divider bad(0);
  } catch (const std::invalid_argument &) {
    threw = true;
  }
  if (!threw) {
    ++failures;
    std::printf("FAIL Divider(0) did not throw\n");
  }
  std::printf("%ld checks, %ld failures\n", checks, failures);
  return failures ? 1 : 0;
}
