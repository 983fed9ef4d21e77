#pragma once
// Embedded mode's impression sink (impression_sink.h): an impression is counted by the core
// that owns it (impressions/impression_owner.h), so that its dedup check and its cap update
// happen in one place. One this core owns is counted at once, its line appended in this
// loop turn; any other is handed to its owner by a cross-core ask (impression_ask.h) and its
// 204 held here until the owner's answer, which leaves there once the line is written.
#include <cstdint>

#include "runtime/core_channel.h"
#include "runtime/cross_core_asks.h"
#include "tracking/impression_sink/held_replies.h"
#include "tracking/impression_sink/impression_ask.h"
#include "tracking/impression_sink/impression_sink.h"
#include "tracking/impressions/impression_counter.h"

namespace tracking::impression_sink {

class OwnerCoreImpressions final : public ImpressionSink {
 public:
  // counter: this core's. channel and peers null: this core is alone (or a test's) and owns
  // every impression.
  OwnerCoreImpressions(impressions::ImpressionCounter& counter, uint32_t core, runtime::CoreChannel* channel,
                       runtime::AskPeers<ImpressionAsk>* peers, uint32_t max_asks);

  Taken take(const impressions::ImpressionNotice& notice, http::Response& response) override;
  uint64_t counted() const override { return counter_.counters().counted.get(); }
  uint64_t duplicates() const override { return counter_.counters().duplicates.get(); }
  uint64_t refused() const override { return asks_.counters().refused.get(); }

  // The two ends of the ask: on the owner core, count it; back home, the held 204 leaves.
  void serve_ask(ImpressionAsk& ask, uint32_t from_core);
  bool finish_ask(ImpressionAsk& ask);
  // Impressions handed over (sent), counted here for others (served), refused at a bound.
  const runtime::AskCounters& ask_counters() const { return asks_.counters(); }

 private:
  impressions::ImpressionCounter& counter_;
  const uint32_t core_;
  const uint32_t cores_;
  runtime::CrossCoreAsks<ImpressionAsk> asks_;
  HeldReplies held_;  // one per ask in flight
};

}  // namespace tracking::impression_sink
