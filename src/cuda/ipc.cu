#include "ipc.hpp"
#include "common.cuh"
#include <cstring>

namespace vpatch {
namespace cuda {

static_assert(sizeof(IpcHandle) == sizeof(cudaIpcMemHandle_t) && sizeof(IpcHandle) == sizeof(cudaIpcEventHandle_t), "IPC handle size");

namespace {
// *out = the handle that get() fills; where it fails, release() and throw.
template <typename Handle, typename Get, typename Release>
void export_handle(Get get, Release release, const char *what, IpcHandle *out)
{
  Handle h;
  const cudaError_t e = get(&h);
  if (e != cudaSuccess) {
    release();
    detail::check(e, what);
  }
  std::memcpy(out->bytes, &h, sizeof h);
}
} // namespace

BusId current_bus_id()
{
  int dev = 0;
  BusId b{};
  VPATCH_CUDA_CHECK(cudaGetDevice(&dev));
  VPATCH_CUDA_CHECK(cudaDeviceGetPCIBusId(b.id, (int)sizeof b.id, dev));
  return b;
}

bool can_reach_device(const BusId &other)
{
  int me = 0, dev = 0, can = 0;
  BusId o = other;
  o.id[sizeof o.id - 1] = 0;
  VPATCH_CUDA_CHECK(cudaGetDevice(&me));
  if (cudaDeviceGetByPCIBusId(&dev, o.id) != cudaSuccess) {
    (void)cudaGetLastError(); // not visible in this process: opening its memory may still work
    return true;
  }
  if (dev == me) return true;
  VPATCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, me, dev));
  return can != 0;
}

void *ipc_malloc(std::size_t bytes, IpcHandle *handle)
{
  void *p = nullptr;
  VPATCH_CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
  export_handle<cudaIpcMemHandle_t>([p](cudaIpcMemHandle_t *h) { return cudaIpcGetMemHandle(h, p); }, [p] { (void)cudaFree(p); },
                                    "cudaIpcGetMemHandle", handle);
  return p;
}

void *ipc_open(const IpcHandle &handle)
{
  cudaIpcMemHandle_t h;
  std::memcpy(&h, handle.bytes, sizeof h);
  void *p = nullptr;
  VPATCH_CUDA_CHECK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
  return p;
}

void ipc_close(void *mapped)
{
  if (mapped) VPATCH_CUDA_CHECK(cudaIpcCloseMemHandle(mapped));
}

void *ipc_event_create(IpcHandle *handle)
{
  cudaEvent_t ev;
  VPATCH_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess));
  export_handle<cudaIpcEventHandle_t>([ev](cudaIpcEventHandle_t *h) { return cudaIpcGetEventHandle(h, ev); }, [ev] { (void)cudaEventDestroy(ev); },
                                      "cudaIpcGetEventHandle", handle);
  return ev;
}

void *ipc_event_open(const IpcHandle &handle)
{
  cudaIpcEventHandle_t h;
  std::memcpy(&h, handle.bytes, sizeof h);
  cudaEvent_t ev;
  VPATCH_CUDA_CHECK(cudaIpcOpenEventHandle(&ev, h));
  return ev;
}

void event_destroy(void *event)
{
  if (event) VPATCH_CUDA_CHECK(cudaEventDestroy(static_cast<cudaEvent_t>(event)));
}

void event_record(void *event, void *stream) { VPATCH_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event), detail::to_stream(stream))); }

void stream_wait_event(void *stream, void *event)
{
  VPATCH_CUDA_CHECK(cudaStreamWaitEvent(detail::to_stream(stream), static_cast<cudaEvent_t>(event), 0));
}

void stream_synchronize(void *stream) { VPATCH_CUDA_CHECK(cudaStreamSynchronize(detail::to_stream(stream))); }

bool stream_is_capturing(void *stream)
{
  cudaStreamCaptureStatus status;
  VPATCH_CUDA_CHECK(cudaStreamIsCapturing(detail::to_stream(stream), &status));
  return status != cudaStreamCaptureStatusNone;
}

} // namespace cuda
} // namespace vpatch
