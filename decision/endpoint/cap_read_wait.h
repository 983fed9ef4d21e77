#pragma once
// Requests waiting for their user's cap state from the shared cap store (cluster mode,
// docs/cluster.md): the request as it arrived (forwarded_request.h), kept while the store
// answers; then its handler runs it again with the state that came back, or without the
// capped ads when none came in time. Decisions and explains both wait so.
#include <cstdint>
#include <memory>
#include <vector>

#include "caps/shared_cap_store.h"
#include "decision/endpoint/forwarded_request.h"

namespace decision::endpoint {

class CapReadWait;
class DecisionIntake;

class CapReadWaiter {
 public:
  virtual ~CapReadWaiter() = default;
  // The user's cap state came back (null: not in time): run the request and complete
  // wait, then hand it back (CapReadWaits::give_back).
  virtual void finish_cap_read(CapReadWait& wait, const caps::CapReader* state) = 0;
};

class CapReadWait final : public ForwardedRequest, public caps::CapReadDone {
 public:
  explicit CapReadWait(CapReadWaiter& waiter) : waiter_(waiter) {}
  void on_caps_read(const caps::CapReader* state) override { waiter_.finish_cap_read(*this, state); }

  // The intake that parsed the request, kept with the wait (kept_intakes.h); null: the body
  // was copied and is parsed again.
  DecisionIntake* kept_intake = nullptr;

 private:
  CapReadWaiter& waiter_;
};

// One handler's waits, allocated at start; at most size at once.
class CapReadWaits {
 public:
  CapReadWaits(CapReadWaiter& waiter, uint32_t size);
  // Asks store for user_key's state and defers response until it answers; the wait. Null,
  // with response untouched, when no wait is free or the store refused: run the request
  // now. with_body false: the body is not copied (the caller keeps it parsed).
  CapReadWait* ask(caps::SharedCapStore& store, uint64_t user_key, const http::Request& request,
                   http::Response& response, bool with_body = true);
  void give_back(CapReadWait& wait) { free_.push_back(&wait); }

 private:
  std::vector<std::unique_ptr<CapReadWait>> pool_;
  std::vector<CapReadWait*> free_;
};

}  // namespace decision::endpoint
