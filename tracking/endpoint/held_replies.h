#pragma once
// Tracking replies that wait for their impression's line (docs/events.md "Durability"): a
// 204 acknowledges an impression, so it leaves only once the line that records it has been
// handed to the kernel, or with it. An impression counted on this core is logged at once and
// needs no wait; one counted by another core (embedded mode, the user's owner core) or
// after the shared cap store answers (cluster mode) is held here, its reply written already
// and deferred (http/reply_ticket.h), until that line is written.
#include <cstdint>
#include <memory>
#include <vector>

#include "http/response.h"
#include "tracking/impressions/impression_logged.h"

namespace tracking::endpoint {

class HeldReplies;

class HeldReply final : public impressions::ImpressionLogged {
 public:
  explicit HeldReply(HeldReplies& owner) : owner_(owner) {}
  // Takes over response as it stands (status, headers) and defers it.
  void hold(http::Response& response);
  // The line is written: the reply leaves (if its client is still there), back to the pool.
  void impression_logged() override;

 private:
  HeldReplies& owner_;
  http::Response reply_;  // buffers kept from hold to hold
  http::ReplyTicket ticket_;
};

// One handler's held replies, allocated at start; at most size at once.
class HeldReplies {
 public:
  explicit HeldReplies(uint32_t size);
  // nullptr when every one is held.
  HeldReply* take();
  void give_back(HeldReply* reply) { free_.push_back(reply); }

 private:
  std::vector<std::unique_ptr<HeldReply>> pool_;
  std::vector<HeldReply*> free_;
};

}  // namespace tracking::endpoint
