#pragma once
// Objects a core lends to other cores with a message and gets back with another: the
// asks of cross-core work (runtime/cross_core_asks.h). Allocated once at start; bounded
// twice:
//   - in all, by the pool's size (an operator's flag);
//   - per peer core, by kPerPeer, so that the messages about one pair of cores always fit
//     their SPSC queue (runtime/queue_budget.h).
// When either bound is reached take() refuses, and the caller sheds the request (503 10098).
// Single-threaded: only the owning core calls it.
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/check.h"

namespace runtime {

template <typename T, uint32_t kPerPeerBound>
class LoanPool {
 public:
  static constexpr uint32_t kPerPeer = kPerPeerBound;

  LoanPool(uint32_t size, uint32_t cores) : on_loan_(cores, 0) {
    objects_.reserve(size);
    free_.reserve(size);
    for (uint32_t i = 0; i < size; ++i) {
      objects_.push_back(std::make_unique<T>());
      free_.push_back(objects_.back().get());
    }
  }

  // An object to lend to peer, or nullptr at a bound.
  T* take(uint32_t peer) {
    DECISIOND_CHECK(peer < on_loan_.size());
    if (free_.empty() || on_loan_[peer] >= kPerPeer) return nullptr;
    T* object = free_.back();
    free_.pop_back();
    ++on_loan_[peer];
    return object;
  }

  // The object came back from peer. A second return of one loan would hand the object to
  // two asks at once; a return to the wrong peer would let that peer's bound drift.
  void give_back(T* object, uint32_t peer) {
    DECISIOND_CHECK(peer < on_loan_.size());
    DECISIOND_CHECK_MSG(on_loan_[peer] > 0, "a loan came back from a peer that held none");
    DECISIOND_CHECK_MSG(free_.size() < objects_.size(), "more loans came back than were lent");
    free_.push_back(object);
    --on_loan_[peer];
  }

  uint32_t on_loan() const { return static_cast<uint32_t>(objects_.size() - free_.size()); }
  uint32_t on_loan_to(uint32_t peer) const { return on_loan_[peer]; }
  uint32_t size() const { return static_cast<uint32_t>(objects_.size()); }

 private:
  std::vector<std::unique_ptr<T>> objects_;
  std::vector<T*> free_;
  std::vector<uint32_t> on_loan_;  // per peer core
};

}  // namespace runtime
