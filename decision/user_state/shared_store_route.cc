#include "decision/user_state/shared_store_route.h"

#include "runtime/check.h"

namespace decision::user_state {

SharedStoreRoute::SharedStoreRoute(std::string_view path, caps::SharedCapStore& store,
                                   uint32_t core, uint32_t max_waits)
    : path_(path), store_(store), core_(core), waits_(*this, max_waits) {}

Reached SharedStoreRoute::reach(const StateAsk& ask, const http::Request& request, http::Response& response) {
  if (arriving_) {
    if (arrived_state_ == nullptr) return without_state();
    state_ = arrived_state_;
    return {};
  }
  // No candidate carries a cap: nothing to wait for.
  if (!ask.reads_caps) {
    state_ = &unavailable_;
    return {};
  }
  // The parse stays with the caller when it can keep it; else the body goes with the wait,
  // to be parsed again.
  StoreWait* wait = waits_.ask(store_, ask.user_key, request, response, /*with_body=*/!ask.can_keep_parse);
  if (wait == nullptr) return without_state();
  counters_.reads.add();
  return {.reach = Reach::kAway, .travelling = wait, .waits_here = true};
}

Reached SharedStoreRoute::without_state() {
  counters_.refused.add();
  state_ = &unavailable_;
  return {};
}

void SharedStoreRoute::state_read(StoreWait& wait, const caps::CapReader* state) {
  DECISIOND_CHECK_MSG(!arriving_, "a store answer arrived inside another's replay");
  const http::Request request = wait.replay(path_);
  wait.reply().reset();
  arriving_ = true;
  arrived_state_ = state;
  user().arrive(request, wait.reply(), wait);
  arriving_ = false;
  arrived_state_ = nullptr;
  state_ = &unavailable_;
  wait.complete();
  waits_.give_back(wait);
}

}  // namespace decision::user_state
