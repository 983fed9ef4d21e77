#pragma once
// One core's lines between the log and the stream: read and published (or to be published
// again), not yet all acknowledged. Acknowledgements come in any order; the checkpoint
// advances over the contiguous acknowledged prefix only. Bounded by the shipper: it adds a
// line only while the node's window has room.
#include <cstdint>
#include <deque>
#include <vector>

#include "tracking/event_shipping/log_cursor.h"
#include "tracking/event_shipping/ship_checkpoint.h"

namespace tracking::event_shipping {

class ShipWindow {
 public:
  enum class State : uint8_t { kToPublish, kPublished, kAcknowledged };
  struct Line {
    uint64_t seq = 0;
    int64_t time_ms = 0;
    LogPosition position;
    uint32_t length = 0;          // with its line feed
    uint64_t stream_floor = 0;    // the highest stream sequence acknowledged before its first publish
    int64_t published_ms = 0;     // its last publish, for the acknowledgement timeout
    State state = State::kToPublish;
  };

  // From a checkpoint (or the log's start).
  explicit ShipWindow(const ShipCheckpoint& from);

  // A line read from the log, published now (or, in_stream, known to be in the stream
  // already: it counts as acknowledged).
  void add(const ShippableLine& line, uint64_t stream_floor, int64_t now_ms, bool in_stream);
  // The line just added could not be published: it is published again later.
  void retry_last();
  // The line's acknowledgement; false when no published line has that seq (a late answer).
  bool acknowledge(uint64_t seq);
  // Lines the stream is known to hold (a read-back): acknowledged wherever they are.
  void acknowledge_in_stream(const std::vector<uint64_t>& sorted_seqs);
  // Every published line not acknowledged is to be published again (same ids); how many.
  uint64_t republish_unacknowledged();
  // The next line to publish again, oldest first; null when none.
  Line* next_to_publish();
  void published(Line& line, int64_t now_ms);

  // Drops the acknowledged prefix, moving the checkpoint over it; the lines and bytes it
  // dropped.
  struct Advance {
    uint64_t lines = 0;
    uint64_t bytes = 0;
  };
  Advance advance();

  // end: where the cursor stands (the checkpoint's position when every line read is
  // acknowledged); floor_now: the highest stream sequence acknowledged so far.
  ShipCheckpoint checkpoint(LogPosition end, uint64_t floor_now) const;
  // Lines held: published, acknowledged out of order, or to be published again.
  size_t size() const { return lines_.size(); }
  bool empty() const { return lines_.empty(); }
  const Line& oldest() const { return lines_.front(); }
  uint64_t lines_back_seq() const { return lines_.back().seq; }
  // The oldest publish still unanswered (0: none).
  int64_t oldest_published_ms() const;
  // Lines published and not answered.
  uint64_t unanswered() const;
  uint64_t next_seq() const { return next_seq_; }
  uint64_t unacknowledged_bytes() const;

 private:
  std::deque<Line> lines_;  // in seq order
  size_t first_to_publish_ = 0;  // lines_ before it are not kToPublish
  uint64_t next_seq_;
  LogPosition after_prefix_;
};

}  // namespace tracking::event_shipping
