// Thread layout of the point kernels (the gather operator, transfers k = 1): a
// thread block covers a tile of points across the directions other than the last one
// (3D: 32 x YR in x, y with R consecutive rows per thread, Y = 8 by default; 2D: XR in x,
// X = 256 by default, R points X apart per thread, or R adjacent points with Adjacent) and marches along the last direction (3D: z, 2D: y)
// through a chunk of planes, so per-point setup (coefficient rows, index arithmetic) is
// paid once per column, and each plane is read once per block.
#pragma once
#include "../core/layout.hpp"

namespace vpatch {
namespace cuda {
namespace detail {

template <int dim, int R = 1, int Chunk = 32, bool Adjacent = false, int Threads = 256>
struct MarchTile {
  static_assert(dim == 2 || dim == 3, "MarchTile: 2D or 3D");
  static_assert(!Adjacent || dim == 2, "MarchTile: adjacent points along x in 2D only");
  static constexpr int m = dim - 1;              // marching direction
  static constexpr int X = dim == 3 ? 32 : Threads;          // threads along x (one point each)
  static constexpr int Y = dim == 3 ? Threads / 32 : 1;     // threads along y (3D), R consecutive points each
  static_assert(X * Y == Threads, "MarchTile: 3D blocks of 32 x Y threads");
  static constexpr int rows = R;                 // points per thread and plane (3D: along y, 2D: step apart along x)
  static constexpr int width = dim == 3 ? X : X * R; // tile extent along x
  static constexpr int step = Adjacent ? 1 : X;  // 2D: distance along x between a thread's points
  static constexpr int threads = X * Y;
  static constexpr int chunk = Chunk;            // planes per block along m

  // Grid covering n0 (x) by n1 (y, 3D) columns and nm planes.
  static dim3 grid(long n0, long n1, long nm)
  {
    const unsigned gx = (unsigned)((n0 + width - 1) / width), gm = (unsigned)((nm + chunk - 1) / chunk);
    return dim == 3 ? dim3(gx, (unsigned)((n1 + Y * R - 1) / (Y * R)), gm) : dim3(gx, gm, 1);
  }
  static dim3 block() { return dim3(X, Y, 1); }
  // This block's chunk index along m and its thread's (first) column offsets.
  __device__ static int chunk_index() { return dim == 3 ? blockIdx.z : blockIdx.y; }
  __device__ static int origin0() { return blockIdx.x * width; }
  __device__ static int col0() { return origin0() + threadIdx.x * (Adjacent ? R : 1); }
  __device__ static int col1() { return dim == 3 ? (blockIdx.y * Y + threadIdx.y) * R : 0; }
};

// Distance between consecutive planes along the marching direction of an array with
// extents n[] (x fastest), and the offset of column (c0, c1) within a plane.
template <int dim>
__host__ __device__ inline long plane_stride(const int (&n)[3])
{
  return dim == 3 ? (long)n[0] * n[1] : (long)n[0];
}
template <int dim>
__host__ __device__ inline long column_offset(const int (&n)[3], int c0, int c1)
{
  return dim == 3 ? (long)c1 * n[0] + c0 : (long)c0;
}

} // namespace detail
} // namespace cuda
} // namespace vpatch
