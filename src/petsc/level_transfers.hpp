// The grid transfers of a chain of levels whose coarse levels may sit on rank 0 alone
// (Agglomeration): the restriction of level l's array to level l - 1's right-hand side and
// the prolongation of level l - 1's solution into level l. Where the chain crosses onto
// rank 0, the transfer runs on the agglomerated level's distributed twin, which is
// gathered to rank 0 after a restriction and scattered from it before a prolongation.
#pragma once
#include "agglomeration.hpp"
#include "level_ops.hpp"
#include <vector>

namespace vpatch {

template <typename Number>
class LevelTransfers {
public:
  // ops[l]: level l (0: coarsest), nullptr where it is not on this rank; agg may be null.
  LevelTransfers(const std::vector<LevelOps<Number> *> &ops, std::shared_ptr<const Agglomeration> agg, MemSpace space);
  void set_stream(void *stream);
  // coarse = R fine (level l-1's array; on ranks without level l-1 unused)
  PetscErrorCode restrict(int l, const Number *fine, Number *coarse);
  // Full multigrid's right-hand sides: level `from`'s (bf) restricted down to level `to`, into
  // b[from - 1], ..., b[to] (the levels on this rank; one log event, none for an empty range).
  PetscErrorCode restrict_down(int from, int to, const Number *bf, std::vector<Buffer<Number>> &b);
  // fine += P coarse (add) or fine = P coarse (coarse: level l-1's array, as above)
  PetscErrorCode prolongate(int l, const Number *coarse, Number *fine, bool add);
  // The gather's exchange set up now (collective; see LevelOps::prepare_exchange).
  PetscErrorCode prepare_exchanges(bool *ipc) const;
  // Whether level l - 1 is the agglomerated one (the transfer gathers or scatters).
  bool crosses(int l) const { return agg_ && l - 1 == agg_->level; }

private:
  std::shared_ptr<const Agglomeration> agg_;
  std::unique_ptr<LevelOps<Number>> twin_; // before t_, whose crossing transfer refers to it
  Buffer<Number> twin_b_, twin_x_;
  std::vector<std::unique_ptr<TransferOps<Number>>> t_; // t_[l]: level l-1 -> l
};

} // namespace vpatch
