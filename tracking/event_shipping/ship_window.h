#pragma once
// One core's runs between the log and the stream: read and published (or to be published
// again), not yet all acknowledged. Acknowledgements come in any order; the checkpoint
// advances over the contiguous acknowledged prefix only. Bounded by the shipper: it adds a
// run only while the node's window has room for its lines.
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "tracking/event_shipping/ship_checkpoint.h"
#include "tracking/event_shipping/ship_run.h"

namespace tracking::event_shipping {

// Seqs [first, last] of one core's lines the stream holds, ascending and disjoint.
using SeqRanges = std::vector<std::pair<uint64_t, uint64_t>>;

class ShipWindow {
 public:
  enum class State : uint8_t { kToPublish, kPublished, kAcknowledged };
  struct Run {
    RunExtent extent;
    uint64_t stream_floor = 0;    // the highest stream sequence acknowledged before its first publish
    int64_t published_ms = 0;     // its last publish, for the acknowledgement timeout
    State state = State::kToPublish;
  };

  // From a checkpoint (or the log's start).
  explicit ShipWindow(const ShipCheckpoint& from);

  // A run read from the log, published now (or, in_stream, known to be in the stream
  // already: it counts as acknowledged).
  void add(const RunExtent& run, uint64_t stream_floor, int64_t now_ms, bool in_stream);
  // The run just added could not be published: it is published again later.
  void retry_last();
  // The acknowledgement of the run that starts at first_seq; false when no published run
  // does (a late answer).
  bool acknowledge(uint64_t first_seq);
  // Runs whose every line the stream is known to hold (a read-back): acknowledged wherever
  // they are.
  void acknowledge_in_stream(const SeqRanges& in_stream);
  // Every published run not acknowledged is to be published again (same ids, same lines);
  // how many lines that is.
  uint64_t republish_unacknowledged();
  // The next run to publish again, oldest first; null when none.
  Run* next_to_publish();
  void published(Run& run, int64_t now_ms);

  // Drops the acknowledged prefix, moving the checkpoint over it; the lines and bytes it
  // dropped.
  struct Advance {
    uint64_t lines = 0;
    uint64_t bytes = 0;
  };
  Advance advance();

  // end: where the cursor stands (the checkpoint's position when every run read is
  // acknowledged); floor_now: the highest stream sequence acknowledged so far.
  ShipCheckpoint checkpoint(LogPosition end, uint64_t floor_now) const;
  // Runs held: published, acknowledged out of order, or to be published again.
  size_t size() const { return runs_.size(); }
  bool empty() const { return runs_.empty(); }
  const Run& oldest() const { return runs_.front(); }
  uint64_t last_seq_held() const { return runs_.back().extent.last_seq; }
  // The oldest publish still unanswered (0: none).
  int64_t oldest_published_ms() const;
  // Lines in runs published and not answered.
  uint64_t unanswered_lines() const;
  uint64_t next_seq() const { return next_seq_; }
  uint64_t unacknowledged_bytes() const;

 private:
  std::deque<Run> runs_;  // in seq order
  size_t first_to_publish_ = 0;  // runs_ before it are not kToPublish
  uint64_t next_seq_;
  LogPosition after_prefix_;
};

}  // namespace tracking::event_shipping
