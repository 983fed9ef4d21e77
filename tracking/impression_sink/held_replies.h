#pragma once
// Tracking replies that wait for their impression's line to be written elsewhere or later
// (docs/events.md "Writing"): a 204 acknowledges an impression, so it leaves only once the
// line that records it exists. The reply, written already, is deferred
// (http/reply_ticket.h) and held here until the shared cap store's answer wrote the line
// on this core (cluster mode; the connection's reply gate then waits for its write), or
// until the owner core's answer comes home (which leaves there only once the line is
// written: runtime/answer_gate.h). A line written here at once needs no holding: the
// connection's reply gate holds every reply until its lines are written.
#include <cstdint>
#include <memory>
#include <vector>

#include "http/response.h"
#include "tracking/impressions/impression_logged.h"

namespace tracking::impression_sink {

class HeldReplies;

class HeldReply final : public impressions::ImpressionLogged {
 public:
  explicit HeldReply(HeldReplies& owner) : owner_(owner) {}
  // Takes over response as it stands (status, headers) and defers it.
  void hold(http::Response& response);
  // The line is appended on this core, or written on the owner core: the reply goes to its
  // connection (if its client is still there), and this back to the pool.
  void impression_logged() override;

 private:
  HeldReplies& owner_;
  http::Response reply_;  // buffers kept from hold to hold
  http::ReplyTicket ticket_;
};

// One sink's held replies, allocated at start; at most size at once.
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

}  // namespace tracking::impression_sink
