// A recorded stretch of multigrid work: the kernels a body launches, captured once from a
// stream (CUDA stream capture) and replayed by one graph launch, where a launch per kernel
// would leave the GPU waiting on the host (the small levels are latency-bound). The
// kernels' arguments are recorded, so the body's arrays must stay where they are while the
// recording lives. Keyed by the configuration the body ran with (Key: CycleConfig).
#pragma once
#include "compat.hpp"
#include "level_ops.hpp"
#include <exception>
#include <memory>
#include <string>

namespace vpatch {

template <class Key>
class RecordedGraph {
public:
  bool ready_for(const Key &key) const { return graph_ && graph_->ready() && key_ == key; }
  void reset()
  {
    if constexpr (have_cuda) // (CapturedGraph's code is in the CUDA sources)
      if (graph_) graph_->reset();
  }
  // Launches the recording for key on stream, recording it first where it holds none for
  // key: body() launches its kernels on the streams that move(s) set (move(capture) before,
  // move(stream) after). recorded = false where body cannot be recorded (it then launched
  // nothing, and the caller runs it directly); body's errors are returned. what: the work
  // recorded, for -info.
  template <class Move, class Body>
  PetscErrorCode run(const Key &key, void *stream, Move &&move, Body &&body, const char *what, bool *recorded)
  {
    PetscFunctionBegin;
    *recorded = false;
    if constexpr (have_cuda) {
      if (!ready_for(key)) {
        if (!graph_) graph_ = {new cuda::CapturedGraph, [](cuda::CapturedGraph *g) { delete g; }};
        move(graph_->begin());
        PetscErrorCode ierr = PETSC_SUCCESS;
        bool threw = false;
        std::string why = "the stream capture failed";
        const StackMark mark;
        try {
          ierr = body();
        } catch (const std::exception &e) {
          mark.unwind();
          threw = true;
          why = e.what();
        }
        move(stream);
        const bool ended = graph_->end();
        if (ierr || threw || !ended) graph_->reset(); // (a partial recording must not replay)
        PetscCall(ierr);
        if (threw || !ended) {
          PetscCall(PetscInfo(nullptr, "vpatch: %s could not be recorded as a CUDA graph (%s); it runs kernel by kernel\n", what, why.c_str()));
          PetscFunctionReturn(PETSC_SUCCESS);
        }
        key_ = key;
        PetscCall(PetscInfo(nullptr, "vpatch: %s recorded as a CUDA graph\n", what));
      }
      graph_->launch(stream);
      *recorded = true;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }

private:
  Key key_{};
  std::unique_ptr<cuda::CapturedGraph, void (*)(cuda::CapturedGraph *)> graph_{nullptr, nullptr};
};

} // namespace vpatch
