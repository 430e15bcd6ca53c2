#include "peer_exchange.hpp"
#include "logging.hpp"
#if defined(VPATCH_HAVE_CUDA)
  #include "../cuda/ipc.hpp"
  #include "../cuda/vector_ops_cuda.hpp"
#endif
#include <algorithm>
#include <climits>
#include <exception>
#include <string>

namespace vpatch {

#if defined(VPATCH_HAVE_CUDA)
namespace {
// What every rank publishes: its staging buffer and events, their sizes, its device.
struct PeerInfo {
  cuda::IpcHandle memory, packed, unpacked;
  cuda::BusId     device;
  long long       nb, na;
  int             ok;
};

PetscErrorCode AllTrue(MPI_Comm comm, int *ok)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, ok, 1, MPI_INT, MPI_LAND, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

bool Distinct(std::vector<int> v)
{
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}
} // namespace

template <typename Number>
PetscErrorCode PeerExchange<Number>::Create(PetscSF sf, std::unique_ptr<PeerExchange> *out)
{
  MPI_Comm           comm;
  PetscMPIInt        size, me, nsize;
  PetscBool          on = PETSC_TRUE;
  PetscInt           nroots, nleaves;
  const PetscInt    *ilocal;
  const PetscSFNode *iremote;
  PetscFunctionBegin;
  out->reset();
  PetscCall(PetscObjectGetComm((PetscObject)sf, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &me));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsGetBool(nullptr, nullptr, "-vpatch_peer_exchange", &on, nullptr));
  { // one host
    MPI_Comm node;
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_size(node, &nsize));
    PetscCallMPI(MPI_Comm_free(&node));
  }
  // The pattern: my leaves by their roots' rank (b: my leaf indices, their root indices to
  // send), the self edges apart; int indices.
  PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, &iremote));
  PetscInt maxleaf = nleaves;
  if (ilocal)
    for (PetscInt i = 0; i < nleaves; ++i) maxleaf = std::max(maxleaf, ilocal[i] + 1);
  int usable = on && nsize == size && nroots < INT_MAX && maxleaf < INT_MAX;
  PetscCall(AllTrue(comm, &usable));
  if (!usable) {
    PetscCall(PetscInfo(sf, "vpatch: ghost exchanges through PetscSF (-vpatch_peer_exchange off, ranks on several hosts, or arrays beyond INT_MAX points)\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  std::unique_ptr<PeerExchange> x(new PeerExchange);
  x->comm_ = comm;
  PetscCall(PetscObjectGetNewTag((PetscObject)sf, &x->tag_));
  std::vector<std::vector<int>> bleaf(size), broot(size);
  std::vector<int>              self_root, self_leaf;
  for (PetscInt i = 0; i < nleaves; ++i) {
    const int leaf = (int)(ilocal ? ilocal[i] : i), root = (int)iremote[i].index;
    const PetscMPIInt r = (PetscMPIInt)iremote[i].rank;
    if (r == me) {
      self_root.push_back(root);
      self_leaf.push_back(leaf);
    } else {
      bleaf[r].push_back(leaf);
      broot[r].push_back(root);
    }
  }
  // Each rank's leaves' root indices to their owners: a (the roots each neighbour reads)
  std::vector<PetscMPIInt> sendn(size), recvn(size), sdispl(size + 1, 0), rdispl(size + 1, 0);
  for (PetscMPIInt p = 0; p < size; ++p) sendn[p] = (PetscMPIInt)broot[p].size();
  PetscCallMPI(MPI_Alltoall(sendn.data(), 1, MPI_INT, recvn.data(), 1, MPI_INT, comm));
  for (PetscMPIInt p = 0; p < size; ++p) {
    sdispl[p + 1] = sdispl[p] + sendn[p];
    rdispl[p + 1] = rdispl[p] + recvn[p];
  }
  std::vector<int> sendroots, aidx((size_t)rdispl[size]), bidx;
  for (PetscMPIInt p = 0; p < size; ++p) {
    sendroots.insert(sendroots.end(), broot[p].begin(), broot[p].end());
    bidx.insert(bidx.end(), bleaf[p].begin(), bleaf[p].end());
  }
  PetscCallMPI(MPI_Alltoallv(sendroots.data(), sendn.data(), sdispl.data(), MPI_INT, aidx.data(), recvn.data(), rdispl.data(), MPI_INT, comm));
  // Where each neighbour's blocks start in my staging (bcast: its roots for my leaves, at
  // sdispl; reduce: its leaves for my roots, at rdispl), sent to it
  std::vector<long long> mine(2 * (size_t)size), theirs(2 * (size_t)size);
  for (PetscMPIInt p = 0; p < size; ++p) {
    mine[2 * p]     = sdispl[p];
    mine[2 * p + 1] = rdispl[p];
  }
  PetscCallMPI(MPI_Alltoall(mine.data(), 2, MPI_LONG_LONG, theirs.data(), 2, MPI_LONG_LONG, comm));
  x->nb_ = (size_t)sdispl[size];
  x->na_ = (size_t)rdispl[size];
  // The unpacks write without atomics: every leaf once, every root once per block
  bool distinct = Distinct(self_root) && Distinct(self_leaf) && Distinct(bidx);
  for (PetscMPIInt p = 0; p < size && distinct; ++p) distinct = Distinct(std::vector<int>(aidx.begin() + rdispl[p], aidx.begin() + rdispl[p + 1]));

  // Device side: my staging and events, published to all; the neighbours' opened
  PeerInfo info{};
  info.ok = distinct;
  try {
    x->staging_  = static_cast<Number *>(cuda::ipc_malloc(sizeof(Number) * 2 * (x->nb_ + x->na_), &info.memory));
    x->packed_   = cuda::ipc_event_create(&info.packed);
    x->unpacked_ = cuda::ipc_event_create(&info.unpacked);
    info.device  = cuda::current_bus_id();
  } catch (const std::exception &e) {
    info.ok = 0;
    PetscCall(PetscInfo(sf, "vpatch: no CUDA IPC on rank %d (%s)\n", me, e.what()));
  }
  info.nb = (long long)x->nb_;
  info.na = (long long)x->na_;
  std::vector<PeerInfo> all(size);
  PetscCallMPI(MPI_Allgather(&info, (int)sizeof info, MPI_BYTE, all.data(), (int)sizeof info, MPI_BYTE, comm));
  int ok = info.ok;
  for (PetscMPIInt p = 0; p < size; ++p) {
    if (p == me || (!sendn[p] && !recvn[p])) continue;
    x->peers_.push_back({p, (size_t)rdispl[p], (size_t)recvn[p], (size_t)sdispl[p], (size_t)sendn[p], (size_t)theirs[2 * p], (size_t)theirs[2 * p + 1],
                         (size_t)all[p].nb, (size_t)all[p].na, nullptr, nullptr, nullptr});
    try {
      ok = ok && all[p].ok && cuda::can_reach_device(all[p].device);
    } catch (const std::exception &) {
      ok = 0;
    }
  }
  PetscCall(AllTrue(comm, &ok));
  if (ok)
    for (Peer &q : x->peers_) try {
        q.staging  = static_cast<Number *>(cuda::ipc_open(all[q.rank].memory));
        q.packed   = cuda::ipc_event_open(all[q.rank].packed);
        q.unpacked = cuda::ipc_event_open(all[q.rank].unpacked);
      } catch (const std::exception &e) {
        ok = 0;
        PetscCall(PetscInfo(sf, "vpatch: rank %d cannot open rank %d's CUDA IPC handles (%s)\n", me, q.rank, e.what()));
        break;
      }
  PetscCall(AllTrue(comm, &ok));
  if (!ok) {
    PetscCall(PetscInfo(sf, "vpatch: ghost exchanges through PetscSF (no CUDA IPC between these ranks' devices)\n"));
    PetscFunctionReturn(PETSC_SUCCESS); // x's destructor (on every rank) releases what was made
  }
  try {
    x->a_idx_     = Buffer<int>(MemSpace::Device, aidx);
    x->b_idx_     = Buffer<int>(MemSpace::Device, bidx);
    x->self_root_ = Buffer<int>(MemSpace::Device, self_root);
    x->self_leaf_ = Buffer<int>(MemSpace::Device, self_leaf);
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: %s", e.what());
  }
  PetscCall(PetscInfo(sf, "vpatch: ghost exchanges through CUDA IPC with %d neighbour(s), %zu ghosts in, %zu roots out\n", (int)x->peers_.size(), x->nb_, x->na_));
  *out = std::move(x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
void PeerExchange<Number>::release_imports()
{
  for (Peer &q : peers_) {
    try {
      cuda::ipc_close(q.staging);
    } catch (const std::exception &) {
    }
    for (void *ev : {q.packed, q.unpacked}) try {
        cuda::event_destroy(ev);
      } catch (const std::exception &) {
      }
    q.staging = nullptr;
    q.packed = q.unpacked = nullptr;
  }
}

// Collective: this rank's work on its stream done and the neighbours' memory and events
// closed here, then one integer with every neighbour (they have done the same), then this
// rank's staging and events released.
template <typename Number>
PeerExchange<Number>::~PeerExchange()
{
  int finalized = 0;
  try {
    cuda::stream_synchronize(stream_); // (a null stream_ is the legacy default stream, which may hold the packs too)
  } catch (const std::exception &) {
  }
  release_imports();
  (void)MPI_Finalized(&finalized);
  if (tag_ && !finalized) (void)tokens(0, nullptr);
  for (void *ev : {packed_, unpacked_}) try {
      cuda::event_destroy(ev);
    } catch (const std::exception &) {
    }
  try {
    cuda::device_free(staging_);
  } catch (const std::exception &) {
  }
}

// One integer to every neighbour and from every neighbour: its "packed" event was recorded
// (and they agree on the exchange). A rank whose packs failed sends -1 (failure: its
// message), so that every rank of the exchange stops with an error instead of waiting.
template <typename Number>
PetscErrorCode PeerExchange<Number>::tokens(int token, const char *failure)
{
  const size_t n = peers_.size();
  std::vector<int>         in(n);
  std::vector<MPI_Request> req(2 * n);
  PetscFunctionBegin;
  for (size_t i = 0; i < n; ++i) PetscCallMPI(MPI_Irecv(&in[i], 1, MPI_INT, peers_[i].rank, tag_, comm_, &req[i]));
  for (size_t i = 0; i < n; ++i) PetscCallMPI(MPI_Isend(&token, 1, MPI_INT, peers_[i].rank, tag_, comm_, &req[n + i]));
  PetscCallMPI(MPI_Waitall((int)(2 * n), req.data(), MPI_STATUSES_IGNORE));
  PetscCheck(!failure || !*failure, PETSC_COMM_SELF, PETSC_ERR_LIB, "vpatch: %s", failure);
  for (size_t i = 0; i < n; ++i)
    PetscCheck(in[i] == token, PETSC_COMM_SELF, PETSC_ERR_PLIB, "vpatch: rank %d failed in the ghost exchange or is in another one (%d) than this rank (%d)", peers_[i].rank,
               in[i], token);
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename Number>
PetscErrorCode PeerExchange<Number>::exchange(Op op, const Number *src, Number *dst, void *stream)
{
  const bool  bcast = op == Op::Bcast, add = op == Op::ReduceAdd;
  std::string failure;
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(events.peer, 0, 0, 0, 0));
  const size_t half = count_++ & 1;
  try {
    if (cuda::stream_is_capturing(stream)) throw std::logic_error("a ghost exchange through CUDA IPC cannot be recorded in a CUDA graph");
    if (src == dst && self_root_.size()) throw std::logic_error("an in-place ghost exchange with leaves whose roots are on their own rank");
    if (stream != stream_) { // the halves' reuse relies on one stream's order
      cuda::stream_synchronize(stream_); // (a null stream_ is the legacy default stream, which may hold the packs too)
      stream_ = stream;
    }
    // pack into the neighbours' staging, once they are done with this half
    for (const Peer &q : peers_) {
      const size_t n = bcast ? q.a_n : q.b_n;
      if (!n) continue;
      cuda::stream_wait_event(stream, q.unpacked);
      Number *to = bcast ? q.staging + half * q.nb + q.to_b : q.staging + 2 * q.nb + half * q.na + q.to_a;
      cuda::indexed_copy(n, src, bcast ? a_idx_.data() + q.a_off : b_idx_.data() + q.b_off, to, nullptr, false, stream);
    }
    if (bcast) cuda::indexed_copy(self_root_.size(), src, self_root_.data(), dst, self_leaf_.data(), false, stream);
    else cuda::indexed_copy(self_leaf_.size(), src, self_leaf_.data(), dst, self_root_.data(), add, stream);
    cuda::event_record(packed_, stream);
  } catch (const std::exception &e) {
    failure = e.what();
  }
  PetscCall(tokens(failure.empty() ? (int)op + 4 * (int)sizeof(Number) : -1, failure.c_str()));
  try { // unpack what the neighbours packed into this half
    for (const Peer &q : peers_)
      if (bcast ? q.b_n : q.a_n) cuda::stream_wait_event(stream, q.packed);
    if (bcast) cuda::indexed_copy(nb_, staging_ + half * nb_, nullptr, dst, b_idx_.data(), false, stream);
    else
      for (const Peer &q : peers_) // one neighbour at a time: a root may have leaves on several
        cuda::indexed_copy(q.a_n, staging_ + 2 * nb_ + half * na_ + q.a_off, nullptr, dst, a_idx_.data() + q.a_off, add, stream);
    cuda::event_record(unpacked_, stream);
  } catch (const std::exception &e) {
    SETERRQ(PETSC_COMM_SELF, ExceptionErrorCode(e), "vpatch: %s", e.what());
  }
  PetscCall(PetscLogEventEnd(events.peer, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else // without CUDA: never made

template <typename Number>
PetscErrorCode PeerExchange<Number>::Create(PetscSF, std::unique_ptr<PeerExchange> *out)
{
  out->reset();
  return PETSC_SUCCESS;
}
template <typename Number>
PeerExchange<Number>::~PeerExchange() = default;
template <typename Number>
PetscErrorCode PeerExchange<Number>::exchange(Op, const Number *, Number *, void *)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "vpatch was built without CUDA");
}
#endif

template class PeerExchange<float>;
template class PeerExchange<double>;

} // namespace vpatch
