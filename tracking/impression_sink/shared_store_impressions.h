#pragma once
// Cluster mode's impression sink (impression_sink.h): any core of any node sends its
// impression to the shared cap store, which checks its identity and counts it in one atomic
// step (shared_impressions/shared_impression_counter.h: written ahead, answered by a second
// line). The 204 is held until the answer's line is appended on this core, or leaves at once
// when no reply is free to hold (the impression is then kept, its unapplied line written).
#include <cstdint>

#include "tracking/impression_sink/held_replies.h"
#include "tracking/impression_sink/impression_sink.h"
#include "tracking/shared_impressions/shared_impression_counter.h"

namespace tracking::impression_sink {

class SharedStoreImpressions final : public ImpressionSink {
 public:
  // counter: this core's; max_held: replies held at once (the counter's calls in flight).
  SharedStoreImpressions(shared_impressions::SharedImpressionCounter& counter, uint32_t max_held)
      : counter_(counter), held_(max_held) {}

  Taken take(const impressions::ImpressionNotice& notice, http::Response& response) override;
  uint64_t counted() const override { return counter_.counters().counted.get(); }
  uint64_t duplicates() const override { return counter_.counters().duplicates.get(); }
  uint64_t refused() const override { return counter_.counters().unapplied.get(); }

 private:
  shared_impressions::SharedImpressionCounter& counter_;
  HeldReplies held_;
};

}  // namespace tracking::impression_sink
