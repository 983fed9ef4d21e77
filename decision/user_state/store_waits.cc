#include "decision/user_state/store_waits.h"

#include "runtime/check.h"

namespace decision::user_state {

StoreWaits::StoreWaits(StoreWaiter& waiter, uint32_t size) {
  for (uint32_t i = 0; i < size; ++i) {
    pool_.push_back(std::make_unique<StoreWait>(waiter));
    free_.push_back(pool_.back().get());
  }
}

StoreWait* StoreWaits::ask(caps::SharedCapStore& store, uint64_t user_key, const http::Request& request,
                           http::Response& response, bool with_body) {
  if (free_.empty()) return nullptr;
  StoreWait* wait = free_.back();
  // The store answers later, never inside read(): capturing after it is safe, and a refusal
  // leaves the reply undeferred.
  if (!store.read(user_key, *wait)) return nullptr;
  free_.pop_back();
  wait->capture(request, response, with_body);
  return wait;
}

void StoreWaits::give_back(StoreWait& wait) {
  DECISIOND_CHECK_MSG(free_.size() < pool_.size(), "store waits: one given back twice");
  free_.push_back(&wait);
}

}  // namespace decision::user_state
