#pragma once
// Requests waiting for their user's cap state from the shared cap store (cluster mode,
// docs/cluster.md): the request as it arrived (forwarded_request.h), kept while the store
// answers; then the route runs it again with the state that came back, or without the
// capped ads when none came in time (shared_store_route.h).
#include <cstdint>
#include <memory>
#include <vector>

#include "caps/shared_cap_store.h"
#include "decision/user_state/forwarded_request.h"

namespace decision::user_state {

class StoreWait;

class StoreWaiter {
 public:
  virtual ~StoreWaiter() = default;
  // The user's cap state came back (null: not in time): run the request and complete
  // wait, then hand it back (StoreWaits::give_back).
  virtual void state_read(StoreWait& wait, const caps::CapReader* state) = 0;
};

class StoreWait final : public ForwardedRequest, public caps::CapReadDone {
 public:
  explicit StoreWait(StoreWaiter& waiter) : waiter_(waiter) {}
  void on_caps_read(const caps::CapReader* state) override { waiter_.state_read(*this, state); }

 private:
  StoreWaiter& waiter_;
};

// One route's waits, allocated at start; at most size at once.
class StoreWaits {
 public:
  StoreWaits(StoreWaiter& waiter, uint32_t size);
  // Asks store for user_key's state and defers response until it answers; the wait. Null,
  // with response untouched, when no wait is free or the store refused: run the request
  // now. with_body false: the body is not copied (the caller keeps it parsed).
  StoreWait* ask(caps::SharedCapStore& store, uint64_t user_key, const http::Request& request,
                 http::Response& response, bool with_body);
  void give_back(StoreWait& wait);
  uint32_t in_flight() const { return static_cast<uint32_t>(pool_.size() - free_.size()); }

 private:
  std::vector<std::unique_ptr<StoreWait>> pool_;
  std::vector<StoreWait*> free_;
};

}  // namespace decision::user_state
