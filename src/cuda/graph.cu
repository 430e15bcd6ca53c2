// CapturedGraph (kernels_cuda.hpp): stream capture into a CUDA graph, replayed by one launch.
#include "common.cuh"
#include "kernels_cuda.hpp"

namespace vpatch {
namespace cuda {

CapturedGraph::~CapturedGraph()
{
  reset();
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

void CapturedGraph::reset()
{
  // (an executable graph still in flight is freed when it completes: cuGraphExecDestroy)
  if (exec_) cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec_));
  if (graph_) cudaGraphDestroy(static_cast<cudaGraph_t>(graph_));
  exec_ = graph_ = nullptr;
}

void *CapturedGraph::begin()
{
  reset();
  if (!stream_) {
    // non-blocking: a capture on a stream that synchronizes with the legacy default stream
    // would be invalidated by any work the application puts there meanwhile
    cudaStream_t s;
    VPATCH_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    stream_ = s;
  }
  // relaxed: the launchers' one-time calls (cudaFuncSetAttribute) may run during a capture
  VPATCH_CUDA_CHECK(cudaStreamBeginCapture(static_cast<cudaStream_t>(stream_), cudaStreamCaptureModeRelaxed));
  return stream_;
}

bool CapturedGraph::end()
{
  cudaGraph_t g = nullptr;
  const cudaError_t e = cudaStreamEndCapture(static_cast<cudaStream_t>(stream_), &g);
  if (e != cudaSuccess || !g) {
    (void)cudaGetLastError(); // not sticky: clear it
    if (g) cudaGraphDestroy(g);
    return false;
  }
  graph_ = g;
  cudaGraphExec_t x = nullptr;
  if (cudaGraphInstantiate(&x, g, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    reset();
    return false;
  }
  exec_ = x;
  return true;
}

void CapturedGraph::launch(void *stream) const
{
  VPATCH_CUDA_CHECK(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec_), detail::to_stream(stream)));
}

} // namespace cuda
} // namespace vpatch
