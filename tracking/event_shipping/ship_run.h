#pragma once
// A run: consecutive whole lines of one core's log, contiguous in one file, shipped as one
// message (docs/events.md "Shipping to NATS JetStream"). Built from the cursor's lines, one
// at a time, within the run bounds; a line that does not fit starts the next run.
#include <cstdint>
#include <string>
#include <string_view>

#include "tracking/event_shipping/log_cursor.h"
#include "tracking/event_shipping/log_position.h"

namespace tracking::event_shipping {

// How large a run may grow. Defaults chosen by measurement (docs/events.md, "Runs").
struct RunBounds {
  uint32_t max_lines = 1024;
  uint32_t max_bytes = 256 * 1024;  // its lines with their line feeds
  // Once everything on disk is shipped, the shipper reads again after this: a line written
  // meanwhile waits about this long for its run.
  int64_t wait_ms = 100;
};

struct RunExtent {
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  uint32_t lines = 0;
  int64_t time_ms = 0;     // its first line's
  LogPosition position;    // its first line's
  uint32_t length = 0;     // its lines with their line feeds
};

class RunBuilder {
 public:
  // Empties it for the next run (keeps its buffer).
  void clear();
  bool empty() const { return extent_.lines == 0; }
  // Whether line can join: the run is empty, or the line follows its last byte in the same
  // file and keeps the run within bounds. A line alone may exceed max_bytes.
  bool fits(const ShippableLine& line, const RunBounds& bounds) const;
  void add(const ShippableLine& line);

  const RunExtent& extent() const { return extent_; }
  // The message's data: the lines joined by line feeds, none after the last.
  std::string_view data() const { return std::string_view(bytes_).substr(0, bytes_.empty() ? 0 : bytes_.size() - 1); }

 private:
  RunExtent extent_;
  std::string bytes_;  // every line with its line feed
};

}  // namespace tracking::event_shipping
