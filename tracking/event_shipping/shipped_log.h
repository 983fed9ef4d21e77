#pragma once
// One core directory's log on its way to the stream: where reading stands (the cursor),
// what is published and not all acknowledged (the window), the checkpoint on disk, and what
// a read-back found in the stream already. Used by the shipper's thread only.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "tracking/event_shipping/log_cursor.h"
#include "tracking/event_shipping/read_back.h"
#include "tracking/event_shipping/ship_checkpoint.h"
#include "tracking/event_shipping/ship_window.h"

namespace tracking::event_shipping {

// What a log has not yet had acknowledged, for the metrics.
struct LogBacklog {
  int64_t oldest_ms = 0;   // time of the oldest such line; 0: none
  uint64_t lines = 0;      // sequence numbers written and not acknowledged
  uint64_t bytes = 0;
};

class ShippedLog {
 public:
  // Reads the directory's checkpoint. One that is not a checkpoint is reported (for a log
  // line) and the log is read from its beginning, with a read-back from the stream's start.
  ShippedLog(uint32_t core, std::string directory, CursorSettings cursor, std::string* problem);
  ~ShippedLog();
  ShippedLog(const ShippedLog&) = delete;
  ShippedLog& operator=(const ShippedLog&) = delete;

  uint32_t core() const { return core_; }
  const std::string& directory() const { return directory_; }
  LogCursor& cursor() { return cursor_; }
  ShipWindow& window() { return window_; }
  const ShipWindow& window() const { return window_; }

  // A checkpoint on disk: lines of this log may be in the stream.
  bool has_checkpoint() const { return written_.has_value(); }
  // The checkpoint as it stands (floor_now: the highest stream sequence acknowledged yet).
  ShipCheckpoint checkpoint(uint64_t floor_now) const { return window_.checkpoint(cursor_.position(), floor_now); }
  // Writes the checkpoint when it moved (or, without one yet, the first, directory synced).
  absl::Status save_checkpoint(uint64_t floor_now);

  // Read-back: whether lines of this log may be in the stream unacknowledged, and the stream
  // sequence they were all stored after.
  bool needs_read_back() const { return needs_read_back_; }
  uint64_t read_back_floor() const { return read_back_floor_; }
  // After a failure: every unacknowledged line is to be published again, after a read-back.
  // The lines to publish again.
  uint64_t start_again(uint64_t floor_now);
  // The runs of this log found (stream sequence, first seq, last seq); stream_last_seq below
  // the floor means the stream was made again, and everything found counts. How many lines
  // of the log that leaves known to be in the stream.
  uint64_t found_in_stream(const std::vector<FoundRun>& found, uint64_t stream_last_seq);
  // Whether a line about to be shipped was found in the stream (asked in seq order).
  bool take_in_stream(uint64_t seq);

  // A run's data again (its lines joined by line feeds), for a publish again; false when
  // the disk refuses.
  bool read_run(const RunExtent& run, std::string& out);
  LogBacklog backlog();

 private:
  const uint32_t core_;
  const std::string directory_;
  std::optional<ShipCheckpoint> written_;
  ShipWindow window_;
  LogCursor cursor_;
  bool needs_read_back_ = false;
  uint64_t read_back_floor_ = 0;
  SeqRanges in_stream_;              // found in the stream, ahead of the window
  size_t in_stream_next_ = 0;
  int run_fd_ = -1;                  // for read_run: the file last read
  uint64_t run_file_ = 0;
};

}  // namespace tracking::event_shipping
