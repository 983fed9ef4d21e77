#pragma once
// Cluster mode's route to a user's state (user_state_route.h): the cap store every node
// shares (caps/shared_cap_store.h), read from whichever core received the request, with no
// owner hop (docs/cluster.md, "The request paths"). The request waits on this core while the
// store reads the user's state, then runs again from the start with what came back.
//
// Failure policy, fail closed: a store that refuses (at its bound), a wait pool that is
// full, or an answer that does not come in time leaves the request decided now without the
// user's capped ads (their state unknown, none is allowed), counted as refused.
#include <cstdint>
#include <optional>
#include <string_view>

#include "caps/shared_cap_store.h"
#include "decision/capping/frequency_cap_rule.h"
#include "decision/user_state/store_waits.h"
#include "decision/user_state/user_state_route.h"

namespace decision::user_state {

class SharedStoreRoute final : public UserStateRoute, public StoreWaiter {
 public:
  // max_waits: requests of this route waiting for the store at once on this core.
  SharedStoreRoute(std::string_view path, caps::SharedCapStore& store, uint32_t core,
                   uint32_t max_waits);

  Reached reach(const StateAsk& ask, const http::Request& request, http::Response& response) override;
  const caps::CapReader& state() const override { return *state_; }
  void hold_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) override {
    store_.add_pending(user_key, ad_id, now_s);
  }
  std::optional<uint32_t> owner_core(uint64_t) const override { return std::nullopt; }
  uint32_t received_on_core() const override { return core_; }
  const RouteCounters& counters() const override { return counters_; }

  void state_read(StoreWait& wait, const caps::CapReader* state) override;
  uint32_t in_flight() const { return waits_.in_flight(); }

 private:
  // Decided without the user's capped ads.
  Reached without_state();

  const std::string_view path_;
  caps::SharedCapStore& store_;
  const uint32_t core_;
  StoreWaits waits_;
  capping::CapsUnavailable unavailable_;
  const caps::CapReader* state_ = &unavailable_;
  // While a request whose state came back runs again: that state, or null when none came.
  bool arriving_ = false;
  const caps::CapReader* arrived_state_ = nullptr;
  RouteCounters counters_;
};

}  // namespace decision::user_state
