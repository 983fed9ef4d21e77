#pragma once
// Tracking replies that wait for their impression's line (docs/events.md "Writing"): a 204
// acknowledges an impression, so it leaves only once the line that records it has been
// written (a write completed, not only submitted). The reply, written already, is deferred
// (http/reply_ticket.h) and held here: on this core until its line is written
// (runtime/after_lines_written.h), after the shared cap store's answer wrote it (cluster
// mode), or until the owner core's answer comes home (which leaves there only once the line
// is written: runtime/answer_gate.h).
#include <cstdint>
#include <memory>
#include <vector>

#include "http/response.h"
#include "runtime/after_lines_written.h"
#include "tracking/impressions/impression_logged.h"

namespace tracking::endpoint {

class HeldReplies;

class HeldReply final : public impressions::ImpressionLogged, public runtime::LinesWrittenWaiter {
 public:
  explicit HeldReply(HeldReplies& owner) : owner_(owner) {}
  // Takes over response as it stands (status, headers) and defers it.
  void hold(http::Response& response);
  // The line is appended on this core: the reply waits for its write.
  void impression_logged() override;
  // The line is written (here, or by the owner core): the reply leaves (if its client is
  // still there), and this goes back to the pool.
  void lines_written() override;

 private:
  HeldReplies& owner_;
  http::Response reply_;  // buffers kept from hold to hold
  http::ReplyTicket ticket_;
};

// One handler's held replies, allocated at start; at most size at once.
class HeldReplies {
 public:
  // after_lines: this core's event log's waits (null: a line appended here is taken as
  // written, for tests of one handler without a log).
  HeldReplies(uint32_t size, runtime::AfterLinesWritten* after_lines);
  // nullptr when every one is held.
  HeldReply* take();
  void give_back(HeldReply* reply) { free_.push_back(reply); }
  runtime::AfterLinesWritten* after_lines() const { return after_lines_; }

 private:
  std::vector<std::unique_ptr<HeldReply>> pool_;
  std::vector<HeldReply*> free_;
  runtime::AfterLinesWritten* const after_lines_;
};

}  // namespace tracking::endpoint
