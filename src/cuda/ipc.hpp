// CUDA interprocess communication for the ghost exchanges of ranks that share a host
// (src/petsc/peer_exchange.hpp): device memory and events of one process made usable by
// another (cudaIpc*), stream waits on them. No PETSc types; errors throw std::runtime_error.
#pragma once
#include <cstddef>

namespace vpatch {
namespace cuda {

// The opaque bytes of a cudaIpcMemHandle_t or cudaIpcEventHandle_t (both 64 bytes).
struct IpcHandle {
  unsigned char bytes[64];
};

// The PCI bus id of this process's device (the same physical device in every process,
// whatever CUDA_VISIBLE_DEVICES numbers it).
struct BusId {
  char id[32];
};
BusId current_bus_id();
// Whether kernels on this process's device can write memory of the device `other`: the same
// device, or one with peer access between the two; true for a device not visible here
// (ipc_open then decides).
bool can_reach_device(const BusId &other);

// A device allocation of `bytes` (cudaMalloc: IPC needs no pool memory) and its handle.
void *ipc_malloc(std::size_t bytes, IpcHandle *handle);
// Another process's allocation mapped into this one (peer access enabled as needed); close
// with ipc_close.
void *ipc_open(const IpcHandle &handle);
void ipc_close(void *mapped);

// An interprocess event (no timing) and its handle; another process's event opened here.
void *ipc_event_create(IpcHandle *handle);
void *ipc_event_open(const IpcHandle &handle);
void event_destroy(void *event);
void event_record(void *event, void *stream);
void stream_wait_event(void *stream, void *event);
void stream_synchronize(void *stream);
bool stream_is_capturing(void *stream); // recording a CUDA graph

} // namespace cuda
} // namespace vpatch
