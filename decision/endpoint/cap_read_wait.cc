#include "decision/endpoint/cap_read_wait.h"

#include "runtime/check.h"

namespace decision::endpoint {

CapReadWaits::CapReadWaits(CapReadWaiter& waiter, uint32_t size) {
  for (uint32_t i = 0; i < size; ++i) {
    pool_.push_back(std::make_unique<CapReadWait>(waiter));
    free_.push_back(pool_.back().get());
  }
}

CapReadWait* CapReadWaits::ask(caps::SharedCapStore& store, uint64_t user_key, const http::Request& request,
                               http::Response& response, bool with_body) {
  if (free_.empty()) return nullptr;
  CapReadWait* wait = free_.back();
  // The store answers later, never inside read(): capturing after it is safe, and a refusal
  // leaves the reply undeferred.
  if (!store.read(user_key, *wait)) return nullptr;
  free_.pop_back();
  wait->kept_intake = nullptr;
  wait->capture(request, response, with_body);
  return wait;
}

}  // namespace decision::endpoint
