// PETSc-free microbenchmark of the CUDA level kernels (src/cuda): one smoothing step (all
// 2^d colors, forward, in place) per smoother kernel variant and from a zero x (Fused,
// Boundary: a cycle's pre-smoothing), laplace_apply, laplace_residual (y = b - A x) and
// prolongate + restrict_add (and the prolongation alone, adding or overwriting: --ops
// prolongate,prolongate_overwrite), for 2D and 3D, k = 1..8, float and double, on one GPU.
//
// Protocol (paper section 4): one warm-up run, then 10 groups of 10 runs timed with CUDA
// events; the best group average is reported. Output: a human-readable table on stdout and
// a CSV file. Throughput: DoF/s, GFlop/s (flops counted by src/cuda/cost_model.hpp as the
// kernels execute them), and the on-chip roofline of the paper's eq. (4.3) under the
// arithmetic peak (the roof's flat part):
//   B = #SMs x 32 banks x 4 bytes x clock,  R = min(B F / (d_r + d_w), P),
//   P = #SMs x FP32 or FP64 lanes per SM x 2 flops (a multiply-add) x clock,
// with F and d_r + d_w the flops and shared-memory bytes of the kernel (bench/NOTES.md).
//
// Usage: bench_kernels [--quick] [--csv FILE] [--dim 2|3] [--kmin K] [--kmax K]
//                      [--dofs N] [--precision float|double] [--groups G] [--reps R]
//                      [--ops smooth_fused,laplace_apply,...] (only these operations)
#include "core/element1d.hpp"
#include "core/level_tables.hpp"
#include "cuda/cost_model.hpp"
#include "cuda/common.cuh"
#include "cuda/kernels_cuda.hpp"
#include "cuda/tuning.hpp"
#include <algorithm>
#include <iterator>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <functional>
#include <tuple>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace vpatch;

#define CHECK_CUDA(call) VPATCH_CUDA_CHECK(call)

struct Options {
  bool quick = false;
  std::string csv = "bench_kernels.csv";
  int dim = 0, kmin = 1, kmax = 8, groups = 10, reps = 10;
  double dofs = 0; // target DoF per level (0: default)
  std::string precision;
  std::string ops; // comma-separated operations to run (empty: all)
  bool wants(const std::string &op) const { return ops.empty() || ("," + ops + ",").find("," + op + ",") != std::string::npos; }
};

// ---------------------------------------------------------------------------------------
// Helpers: device vectors filled on the device, r = b - t.

template <typename Number>
__global__ void fill_kernel(Number *v, long n, unsigned seed)
{
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed * 2246822519u;
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
    v[i] = Number(2.0 * (h / 4294967296.0) - 1.0);
  }
}

template <typename Number>
__global__ void residual_kernel(const Number *b, const Number *t, Number *r, long n)
{
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) r[i] = b[i] - t[i];
}

template <typename Number>
struct DevVec {
  Number *p = nullptr;
  long n = 0;
  explicit DevVec(long count, unsigned seed) : n(count)
  {
    p = static_cast<Number *>(cuda::device_malloc(sizeof(Number) * n));
    fill_kernel<Number><<<1024, 256>>>(p, n, seed);
    CHECK_CUDA(cudaGetLastError());
  }
  DevVec(const DevVec &) = delete;
  DevVec &operator=(const DevVec &) = delete;
  ~DevVec() { cuda::device_free(p); }
};

template <typename Number>
struct DevTables {
  std::vector<void *> ptrs;
  OperatorView<Number> op{};
  PatchView<Number> pv{};
  TransferView<Number> tv{};
  const Number *put(const std::vector<Number> &v)
  {
    if (v.empty()) return nullptr;
    void *p = cuda::device_malloc(v.size() * sizeof(Number));
    cuda::copy_to_device(p, v.data(), v.size() * sizeof(Number));
    ptrs.push_back(p);
    return static_cast<const Number *>(p);
  }
  explicit DevTables(const LevelTables<Number> &t)
  {
    op = {put(t.mass), put(t.stiffness)};
    pv = t.device_patch_view({put(t.mass_rows), put(t.stiffness_rows), put(t.eigenvectors), put(t.eigenvectors_t),
                              put(t.eigenvalues), nullptr});
    tv = {put(t.prolongation), put(t.restriction)};
  }
  ~DevTables()
  {
    for (void *p : ptrs) cuda::device_free(p);
  }
};

static Box full_box(int dim, int k, int cells)
{
  const int n = cells * k + 1;
  int os[3] = {0, 0, 0}, om[3] = {n, n, dim == 3 ? n : 1};
  return make_box(dim, k, cells, os, om, os, om);
}

// Best average over `groups` groups of `reps` runs (after one warm-up run), in seconds.
static double time_best(const std::function<void()> &f, cudaStream_t s, int groups, int reps)
{
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  f();
  CHECK_CUDA(cudaStreamSynchronize(s));
  double best = 1e300;
  for (int g = 0; g < groups; ++g) {
    CHECK_CUDA(cudaEventRecord(a, s));
    for (int r = 0; r < reps; ++r) f();
    CHECK_CUDA(cudaEventRecord(b, s));
    CHECK_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    best = std::min(best, 1e-3 * ms / reps);
  }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  return best;
}

struct Device {
  std::string name;
  int sms = 0;
  double clock_hz = 0;
  double hbm_bw = 0; // bytes/s: 2 x memory clock x bus width
  int fp32_lanes = 0, fp64_lanes = 0; // per SM (fp_lanes)
  double onchip_bw() const { return sms * 32.0 * 4.0 * clock_hz; } // bytes/s
  double fp_peak(bool dbl) const { return sms * (dbl ? fp64_lanes : fp32_lanes) * 2.0 * clock_hz; } // flop/s, 0: unknown
};

// FP32 and FP64 lanes per SM by compute capability (CUDA C++ Programming Guide, "Arithmetic
// Instructions" throughput table: results per clock and SM of a multiply-add); 0, 0 where
// the table does not say (no arithmetic ceiling then).
static std::pair<int, int> fp_lanes(int major, int minor)
{
  if (major == 8 && minor == 0) return {64, 32};              // A100
  if (major == 8) return {128, 2};                            // 8.6, 8.7, 8.9
  if (major == 9 || major == 10) return {128, 64};            // H100, H200, B200
  if (major == 12) return {128, 2};
  return {0, 0};
}

struct Row {
  int dim, k;
  const char *prec;
  std::string op;
  double dofs, seconds, flops, bytes; // flops, shared-memory bytes: per call (bytes 0: the kernel uses none)
  double hbm_values;                  // fewest vector values a call must move to/from HBM, per DoF
};

static FILE *g_csv = nullptr;
static Device g_dev;

static void emit(const Row &r)
{
  const double gdofs = r.dofs / r.seconds * 1e-9, gflops = r.flops / r.seconds * 1e-9;
  // On-chip roofline (paper eq. 4.3), undefined for the register-only kernels (k = 1
  // smoother and transfers); HBM roofline: the fewest bytes at the memory bandwidth.
  // (capped by the arithmetic peak where known)
  const double peak = g_dev.fp_peak(!std::strcmp(r.prec, "double")) * 1e-9;
  const double bw_roof = r.bytes > 0 ? g_dev.onchip_bw() * r.flops / r.bytes * 1e-9 : NAN; // GFlop/s
  const double roof = peak > 0 ? std::min(bw_roof, peak) : bw_roof;
  const double pct = 100.0 * gflops / roof;
  const double esize = std::strcmp(r.prec, "double") ? 4.0 : 8.0;
  const double hbm_bytes = r.hbm_values * r.dofs * esize, hbm_pct = 100.0 * hbm_bytes / r.seconds / g_dev.hbm_bw;
  std::printf("%3d %3d %-6s %-22s %12.0f %10.4f %9.3f %9.1f %9.1f %6.1f%% %6.1f%%\n", r.dim, r.k, r.prec, r.op.c_str(), r.dofs,
              1e3 * r.seconds, gdofs, gflops, roof, pct, hbm_pct);
  std::fflush(stdout);
  if (g_csv) {
    std::fprintf(g_csv, "%s,%d,%d,%s,%s,%.0f,%.6e,%.6e,%.6e,%.6e,%.6e,%.3f,%.6e,%.6e,%.6e,%.6e,%.3f,%.6e\n", g_dev.name.c_str(),
                 r.dim, r.k, r.prec, r.op.c_str(), r.dofs, r.seconds, gdofs, gflops, roof, g_dev.onchip_bw() * 1e-9, pct,
                 r.flops, r.bytes, g_dev.hbm_bw * 1e-9, hbm_bytes, hbm_pct, peak);
    std::fflush(g_csv);
  }
}

template <typename Number>
static void bench_level(int dim, int k, const Options &opt)
{
  const char *prec = sizeof(Number) == 8 ? "double" : "float";
  const double target = opt.dofs > 0 ? opt.dofs : (opt.quick ? 8e6 : (dim == 2 ? 64e6 : 50e6));
  const double per_dir = std::pow(target, 1.0 / dim);
  int cells = std::max(4, (int)std::lround((per_dir - 1) / k));
  cells += cells & 1; // even: the coarse level of the transfer has cells / 2
  const Box box = full_box(dim, k, cells), coarse = full_box(dim, k, cells / 2);
  const long nl = box.local_points();
  const double dofs = (double)nl;
  const Element1D e(k);
  const Level1D lev(e, cells), clev(e, cells / 2);
  const LevelTables<Number> tab(dim, e, lev, false), ctab(dim, e, clev, false);
  DevTables<Number> dt(tab), dct(ctab);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  {
    DevVec<Number> x(nl, 1), b(nl, 2), t(nl, 3), xc(coarse.local_points(), 4), yc(coarse.local_points(), 5);
    const int ncolors = 1 << dim;
    const double npatches = std::pow((double)(cells - 1), dim), ncells = std::pow((double)cells, dim),
                 ncoarse = std::pow((double)(cells / 2), dim);
    const int bsz = sizeof(Number);
    // Fewest HBM values per DoF: smoothing step = x read once per color, b read, x_I read
    // and written once; MatMult = x read, y written; prolongate + restrict = fine read and
    // read + written, coarse read and read + written.
    // (k = 1 Fused and Boundary: x read once per color pair, cuda::patch_sweep.)
    const double smooth_hbm = ncolors + 3.0;
    std::vector<int> colors(ncolors);
    for (int color = 0; color < ncolors; ++color) colors[color] = color;
    // from_zero: the step a cycle's pre-smoothing takes (x zeroed, then the first color's
    // patch residuals are b: PatchResidual::Given), the zeroing included.
    auto patch_row = [&](const char *name, cuda::SmootherKernel kern, bool from_zero) {
      if (!opt.wants(name)) return;
      const bool dbl = sizeof(Number) == 8;
      const cuda::KernelCost c = cuda::patch_cost(dim, k, kern, PatchResidual::Local, dbl),
                             c0 = from_zero ? cuda::patch_cost(dim, k, kern, PatchResidual::Given, dbl) : c;
      const double first = 1.0 / ncolors; // of the patches: the first color's
      auto run = [&] {
        if (from_zero) cuda::memset_zero(x.p, sizeof(Number) * (std::size_t)nl, s);
        cuda::patch_sweep<Number>(box, dt.pv, LocalSolver::FDM, from_zero ? PatchResidual::Given : PatchResidual::Local, colors.data(),
                                  ncolors, Number(1), b.p, x.p, kern, s);
      };
      const bool pairs = k == 1 && kern != cuda::SmootherKernel::Basic && cuda::color_pairs(box.patch_end(0) - box.patch_begin(0));
      try {
        const double sec = time_best(run, s, opt.groups, opt.reps);
        emit({dim, k, prec, name, dofs, sec, npatches * (first * c0.flops + (1 - first) * c.flops),
              npatches * (first * (c0.reads + c0.writes) + (1 - first) * (c.reads + c.writes)) * bsz,
              pairs ? ncolors / 2 + 3.0 : smooth_hbm});
      } catch (const std::invalid_argument &ex) {
        std::printf("%3d %3d %-6s %-22s skipped: %s\n", dim, k, prec, name, ex.what());
      }
    };
    patch_row("smooth_fused", cuda::SmootherKernel::Fused, false);
    patch_row("smooth_basic", cuda::SmootherKernel::Basic, false);
    patch_row("smooth_boundary", cuda::SmootherKernel::Boundary, false);
    patch_row("smooth_fused_zero", cuda::SmootherKernel::Fused, true);
    patch_row("smooth_boundary_zero", cuda::SmootherKernel::Boundary, true);
    if (opt.wants("smooth_global")) {
      // Global: per color r = b - A x (laplace_apply + vector update), then the local solves.
      const cuda::KernelCost lc = cuda::laplace_cost(dim, k, sizeof(Number) == 8, false), pc = cuda::patch_cost(dim, k, cuda::SmootherKernel::Global, PatchResidual::Given, sizeof(Number) == 8);
      auto run = [&] {
        for (int color = 0; color < ncolors; ++color) {
          cuda::laplace_apply<Number>(box, dt.op, x.p, t.p, s);
          residual_kernel<Number><<<2048, 256, 0, s>>>(b.p, t.p, t.p, nl);
          CHECK_CUDA(cudaGetLastError());
          cuda::patch_correct<Number>(box, dt.pv, LocalSolver::FDM, PatchResidual::Given, color, Number(1), t.p, x.p, x.p,
                                      cuda::SmootherKernel::Global, s);
        }
      };
      const double sec = time_best(run, s, opt.groups, opt.reps);
      emit({dim, k, prec, "smooth_global", dofs, sec, ncolors * ncells * lc.flops + npatches * pc.flops,
            (ncolors * ncells * (lc.reads + lc.writes) + npatches * (pc.reads + pc.writes)) * bsz, smooth_hbm});
    }
    if (opt.wants("laplace_apply")) {
      const cuda::KernelCost c = cuda::laplace_cost(dim, k, sizeof(Number) == 8, false);
      const double sec = time_best([&] { cuda::laplace_apply<Number>(box, dt.op, x.p, t.p, s); }, s, opt.groups, opt.reps);
      emit({dim, k, prec, "laplace_apply", dofs, sec, ncells * c.flops, ncells * (c.reads + c.writes) * bsz, 2.0});
    }
    if (opt.wants("laplace_residual")) {
      // y = b - A x, the form the cycles and the full multigrid run (gather kernel: in the
      // operator's pass; cell kernel: y = b copied, then the operator subtracted)
      const cuda::KernelCost c = cuda::laplace_cost(dim, k, sizeof(Number) == 8, true);
      const double sec = time_best([&] { cuda::laplace_residual<Number>(box, dt.op, b.p, x.p, t.p, s); }, s, opt.groups, opt.reps);
      emit({dim, k, prec, "laplace_residual", dofs, sec, ncells * c.flops, ncells * (c.reads + c.writes) * bsz, 3.0});
    }
    if (opt.wants("prolongate+restrict")) {
      const cuda::KernelCost c = cuda::transfer_cost(dim, k, sizeof(Number) == 8);
      const double sec = time_best(
        [&] {
          // no feedback between the two (values grow only linearly over the runs)
          cuda::prolongate<Number>(coarse, box, dct.tv, xc.p, t.p, s, true);
          cuda::restrict_add<Number>(coarse, box, dct.tv, x.p, yc.p, s);
        },
        s, opt.groups, opt.reps);
      emit({dim, k, prec, "prolongate+restrict", dofs, sec, ncoarse * c.flops, ncoarse * (c.reads + c.writes) * bsz,
            3.0 + 3.0 / ncolors});
    }
    // The prolongation alone, adding into the fine vector (the cycles' coarse correction) or
    // overwriting it (full multigrid's interpolation): DoF/s and HBM share only (the cost
    // model counts the transfer pair)
    for (const bool add : {true, false}) {
      const char *name = add ? "prolongate" : "prolongate_overwrite";
      if (!opt.wants(name)) continue;
      const double sec = time_best([&] { cuda::prolongate<Number>(coarse, box, dct.tv, xc.p, t.p, s, add); }, s, opt.groups, opt.reps);
      emit({dim, k, prec, name, dofs, sec, 0.0, 0.0, (add ? 2.0 : 1.0) + 1.0 / ncolors});
    }
    CHECK_CUDA(cudaStreamSynchronize(s));
  }
  CHECK_CUDA(cudaStreamDestroy(s));
}

int main(int argc, char **argv)
{
  Options opt;
  for (int i = 1; i < argc; ++i) {
    auto next = [&](const char *what) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value for %s\n", what);
        std::exit(2);
      }
      return argv[++i];
    };
    if (!std::strcmp(argv[i], "--quick")) opt.quick = true;
    else if (!std::strcmp(argv[i], "--csv")) opt.csv = next("--csv");
    else if (!std::strcmp(argv[i], "--dim")) opt.dim = std::atoi(next("--dim"));
    else if (!std::strcmp(argv[i], "--kmin")) opt.kmin = std::atoi(next("--kmin"));
    else if (!std::strcmp(argv[i], "--kmax")) opt.kmax = std::atoi(next("--kmax"));
    else if (!std::strcmp(argv[i], "--dofs")) opt.dofs = std::atof(next("--dofs"));
    else if (!std::strcmp(argv[i], "--groups")) opt.groups = std::atoi(next("--groups"));
    else if (!std::strcmp(argv[i], "--reps")) opt.reps = std::atoi(next("--reps"));
    else if (!std::strcmp(argv[i], "--precision")) opt.precision = next("--precision");
    else if (!std::strcmp(argv[i], "--ops")) opt.ops = next("--ops");
    else if (argv[i][0] != '-') opt.csv = argv[i];
    else {
      std::fprintf(stderr,
                   "usage: %s [--quick] [--csv FILE | FILE] [--dim 2|3] [--kmin K] [--kmax K] [--dofs N] "
                   "[--precision float|double] [--groups G] [--reps R] [--ops OP,OP,...]\n",
                   argv[0]);
      return 2;
    }
  }
  for (size_t a = 0; a < opt.ops.size();) { // every name in --ops must be an operation
    const size_t b = std::min(opt.ops.find(',', a), opt.ops.size());
    const std::string op = opt.ops.substr(a, b - a);
    const char *known[] = {"smooth_fused", "smooth_basic", "smooth_boundary", "smooth_global", "smooth_fused_zero", "smooth_boundary_zero", "laplace_apply", "laplace_residual", "prolongate+restrict", "prolongate", "prolongate_overwrite"};
    if (std::none_of(std::begin(known), std::end(known), [&](const char *k) { return op == k; })) {
      std::fprintf(stderr, "--ops: unknown operation '%s' (smooth_fused, smooth_basic, smooth_boundary, smooth_global, smooth_fused_zero, smooth_boundary_zero, laplace_apply, laplace_residual, prolongate+restrict, prolongate, prolongate_overwrite)\n", op.c_str());
      return 2;
    }
    a = b + 1;
  }
  if (opt.quick && opt.groups == 10 && opt.reps == 10) opt.groups = 5;
  try {
    int dev = 0;
    CHECK_CUDA(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
    int clock_khz = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev)); // cudaDeviceProp::clockRate is gone in CUDA 13
    g_dev.name = prop.name;
    g_dev.sms = prop.multiProcessorCount;
    g_dev.clock_hz = 1e3 * clock_khz;
    int mem_khz = 0, bus_bits = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    CHECK_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
    g_dev.hbm_bw = 2.0 * 1e3 * mem_khz * bus_bits / 8.0;
    std::tie(g_dev.fp32_lanes, g_dev.fp64_lanes) = fp_lanes(prop.major, prop.minor);
    g_csv = std::fopen(opt.csv.c_str(), "w");
    if (!g_csv) throw std::runtime_error("cannot open " + opt.csv);
    std::fprintf(g_csv, "device,dim,k,precision,operation,dofs,seconds,gdofs_per_s,gflops,roofline_gflops,onchip_bw_gbs,"
                        "roofline_pct,flops_per_call,shared_bytes_per_call,hbm_bw_gbs,hbm_bytes_per_call,hbm_pct,fp_peak_gflops\n");
    std::printf("device: %s, %d SMs, clock %.0f MHz, on-chip bandwidth B = %.1f TB/s, HBM %.2f TB/s, "
                "peak %.1f / %.1f TFlop/s (FP32 / FP64)\n", prop.name, g_dev.sms, g_dev.clock_hz * 1e-6, g_dev.onchip_bw() * 1e-12,
                g_dev.hbm_bw * 1e-12, g_dev.fp_peak(false) * 1e-12, g_dev.fp_peak(true) * 1e-12);
    std::printf("protocol: 1 warm-up, %d groups of %d runs, best group average\n", opt.groups, opt.reps);
    std::printf("%3s %3s %-6s %-22s %12s %10s %9s %9s %9s %7s %7s\n", "dim", "k", "prec", "operation", "DoF", "time[ms]",
                "GDoF/s", "GFlop/s", "R[GF/s]", "R%", "HBM%");
    const auto t0 = std::chrono::steady_clock::now();
    for (int dim = 2; dim <= 3; ++dim) {
      if (opt.dim && dim != opt.dim) continue;
      for (int k = opt.kmin; k <= opt.kmax; ++k) {
        if (opt.precision.empty() || opt.precision == "float") bench_level<float>(dim, k, opt);
        if (opt.precision.empty() || opt.precision == "double") bench_level<double>(dim, k, opt);
      }
    }
    std::fclose(g_csv);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("total %.1f s; CSV written to %s\n", total, opt.csv.c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_kernels: %s\n", e.what());
    return 1;
  }
  return 0;
}
