// Ghost exchanges of a level's device arrays between the ranks of one host through CUDA IPC,
// in place of PetscSF where PETSc's MPI is not CUDA-aware (it then stages every exchange
// through host memory: device-host copies, stream synchronizations, MPI on the host).
//
// The pattern is a PetscSF's (roots: owned points, leaves: ghosts and the owned points' local
// copies). Every rank allocates a staging buffer that its neighbours' kernels write directly
// (cudaIpc memory, peer access over NVLink or PCIe): a bcast packs the roots each neighbour
// needs into that neighbour's staging, which the neighbour unpacks into its leaves; a reduce
// packs leaves into the root owner's staging, which it adds into its roots. Ordering without
// host synchronization of the streams: each rank records an interprocess event after its
// packs ("packed") and one after its unpack ("unpacked"); one integer by MPI to and from
// every neighbour per exchange says the packs' event was recorded, and the unpack waits on the
// neighbours' "packed". The staging has two halves used in turn, so a pack into a
// neighbour's half waits on its "unpacked", whose latest record (issued before its previous
// exchange's integer was sent) follows its unpack of that half.
#pragma once
#include "level_ops.hpp"
#include <memory>
#include <petscsf.h>
#include <vector>

namespace vpatch {

template <typename Number>
class PeerExchange {
public:
  // The exchange of sf's pattern through CUDA IPC, or nullptr (PetscSF then) unless every rank of
  // sf's communicator runs on one host, each can map its neighbours' device memory, no root has
  // two leaves on one rank, and -vpatch_peer_exchange (default true) is on. Collective on sf's
  // communicator; so is the destructor (it waits for the neighbours before releasing what they map).
  static PetscErrorCode Create(PetscSF sf, std::unique_ptr<PeerExchange> *out);
  PeerExchange(const PeerExchange &) = delete;
  PeerExchange &operator=(const PeerExchange &) = delete;
  ~PeerExchange();
  // leaves = their roots (PetscSFBcast with MPI_REPLACE); roots and leaves may be one array
  // where no leaf has a root on its own rank (the sweep halo's ghosts)
  PetscErrorCode bcast(const Number *roots, Number *leaves, void *stream) { return exchange(Op::Bcast, roots, leaves, stream); }
  // roots += the sums of their leaves (PetscSFReduce with MPI_SUM: the self edges first, then
  // the neighbours' in rank order, each rounded in Number), or roots = their leaf with replace
  // (MPI_REPLACE; one leaf per root)
  PetscErrorCode reduce(const Number *leaves, Number *roots, bool replace, void *stream)
  {
    return exchange(replace ? Op::ReduceReplace : Op::ReduceAdd, leaves, roots, stream);
  }

private:
  enum class Op { Bcast = 1, ReduceAdd, ReduceReplace };
  PeerExchange() = default;
  PetscErrorCode exchange(Op op, const Number *src, Number *dst, void *stream);
  PetscErrorCode tokens(int token, const char *failure);
  void release_imports();

  // Per neighbour p: the roots it reads (my root indices, in its leaves' order: a) and my leaves
  // whose roots it owns (b), as ranges of a_idx_ / b_idx_ (my reduce / bcast staging layout),
  // and where my blocks start in its staging.
  struct Peer {
    PetscMPIInt rank;
    size_t a_off, a_n, b_off, b_n;
    size_t to_b, to_a;         // my block in p's bcast staging, in p's reduce staging
    size_t nb, na;             // p's staging sizes (bcast, reduce)
    Number *staging;           // p's staging (mapped here)
    void   *packed, *unpacked; // p's events (opened here)
  };
  MPI_Comm comm_ = MPI_COMM_NULL;
  PetscMPIInt tag_ = 0;
  std::vector<Peer> peers_;
  Buffer<int> a_idx_, b_idx_, self_root_, self_leaf_;
  size_t nb_ = 0, na_ = 0; // my staging: [bcast 0 | bcast 1 | reduce 0 | reduce 1]
  Number *staging_ = nullptr;
  void *packed_ = nullptr, *unpacked_ = nullptr, *stream_ = nullptr;
  unsigned long count_ = 0; // exchanges so far: the staging half in use
};

} // namespace vpatch
