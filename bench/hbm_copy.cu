// The HBM bandwidth a copy reaches on this device, the practical ceiling for the kernels
// that stream vectors (the k <= 2 operator, transfers, vector operations): cudaMemcpy
// device to device and grid-stride copy kernels (float4 and float elements), 256 MB to
// 1 GB, best of 20, reported as bytes read + written per second.
// Usage: build-cuda/bench/hbm_copy
#include <cstdio>
#include <cuda_runtime.h>

template <typename T>
__global__ void copy_kernel(const T *__restrict__ a, T *__restrict__ b, long n)
{
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) b[i] = a[i];
}

int main()
{
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  for (long mb : {256L, 512L, 1024L}) {
    const long bytes = mb << 20;
    float *a, *b;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
      std::printf("hbm_copy: cannot allocate 2 x %ld MB\n", mb);
      return 1;
    }
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const char *names[] = {"memcpy", "copy float4", "copy float"};
    for (int v = 0; v < 3; ++v) {
      float best = 1e30f;
      for (int r = 0; r < 20; ++r) {
        cudaEventRecord(e0);
        if (v == 0) cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice);
        else if (v == 1) copy_kernel<<<sms * 16, 256>>>((const float4 *)a, (float4 *)b, bytes / 16);
        else copy_kernel<<<sms * 16, 256>>>(a, b, bytes / 4);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        best = ms < best ? ms : best;
      }
      std::printf("%-12s %5ld MB: %.1f GB/s (read + write)\n", names[v], mb, 2.0 * bytes / best / 1e6);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
