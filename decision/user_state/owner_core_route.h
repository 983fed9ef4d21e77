#pragma once
// Embedded mode's route to a user's state (user_state_route.h): the cap partition of the
// core that owns the user (hash(user id) % cores, docs/caps.md). A request for a user this
// core owns reads its partition at once; any other is handed to the owner by a cross-core
// ask of kind Ask (runtime/cross_core_asks.h; decisions and explains each have theirs), runs
// again there from the start, and its reply comes home in the ask's answer.
//
// Why hand over the whole request rather than ask the owner for counts: forwarded_request.h.
#include <cstdint>
#include <optional>
#include <string_view>

#include "caps/cap_store.h"
#include "caps/user_key.h"
#include "decision/user_state/user_state_route.h"
#include "runtime/check.h"
#include "runtime/core_channel.h"
#include "runtime/cross_core_asks.h"

namespace decision::user_state {

template <typename Ask>
class OwnerCoreRoute final : public UserStateRoute {
 public:
  // partition: this core's. channel and peers null: this core is alone (or a test's), and
  // owns every user. path: where a request handed over is replayed (its endpoint's).
  OwnerCoreRoute(std::string_view path, caps::CapStore& partition, uint32_t core,
                 runtime::CoreChannel* channel, runtime::AskPeers<Ask>* peers, uint32_t max_asks)
      : path_(path), partition_(partition), core_(core), asks_(*this, channel, peers, max_asks),
        cores_(channel != nullptr ? channel->cores() : 1) {}

  Reached reach(const StateAsk& ask, const http::Request& request, http::Response& response) override {
    const uint32_t owner = owner_of(ask.user_key);
    if (owner == core_) {
      counters_.reads.add();
      return {};
    }
    // A request handed here was sent by its owner's hash: it never travels twice.
    DECISIOND_CHECK_MSG(!arrived_from_, "a request handed to the core that owns its user travels again");
    Ask* travelling = asks_.take(owner);
    if (travelling == nullptr) return refused();
    travelling->capture(request, response);
    // Refused, the caller answers at once, which undoes the deferral.
    if (!asks_.send(travelling)) return refused();
    return {.reach = Reach::kAway, .travelling = travelling};
  }
  const caps::CapReader& state() const override { return partition_; }
  void hold_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) override {
    partition_.add_pending(user_key, ad_id, now_s);
  }
  std::optional<uint32_t> owner_core(uint64_t user_key) const override { return owner_of(user_key); }
  uint32_t received_on_core() const override { return arrived_from_.value_or(core_); }
  const RouteCounters& counters() const override { return counters_; }

  // The two ends of the ask: on the owner core, run the request; back home, reply to the
  // waiting connection (false: the client has gone).
  void serve_ask(Ask& ask, uint32_t from_core) {
    const http::Request request = ask.replay(path_);
    ask.reply().reset();
    arrived_from_ = from_core;
    user().arrive(request, ask.reply(), ask);
    arrived_from_.reset();
  }
  bool finish_ask(Ask& ask) { return ask.complete(); }
  // Requests handed over (sent), run here for other cores (served), refused at a bound,
  // answered after the client left (abandoned).
  const runtime::AskCounters& ask_counters() const { return asks_.counters(); }
  uint32_t in_flight() const { return asks_.in_flight(); }

 private:
  uint32_t owner_of(uint64_t user_key) const {
    return asks_.wired() ? caps::owner_core(user_key, cores_) : core_;
  }
  Reached refused() {
    counters_.refused.add();
    return {.reach = Reach::kRefused};
  }

  const std::string_view path_;
  caps::CapStore& partition_;
  const uint32_t core_;
  runtime::CrossCoreAsks<Ask> asks_;
  const uint32_t cores_;
  std::optional<uint32_t> arrived_from_;  // while a request handed here runs
  RouteCounters counters_;
};

}  // namespace decision::user_state
