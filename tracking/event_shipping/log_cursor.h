#pragma once
// Reads one core's event log for shipping, as decisiond-events reads it but while the core
// still writes it: file after file in sequence order, a bounded chunk at a time, whole lines
// only. Only lines that are on disk come out: each chunk read from a file is followed by an
// fdatasync of the cursor's own descriptor of that file before its lines are handed out, so
// a line published can never be lost by a machine crash and its seq reused by another line.
// A line without its line feed at a file's end waits: the core may still be writing it; once
// a later file exists the core writes no more to this one (runtime::LineLog opens the event
// log's next file only once every write to the current one has landed:
// LineLogFiles::holds_lines_while_opening), and what is left without a line feed is a torn line, skipped
// and counted. Nothing here waits for the core.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tracking/event_shipping/log_position.h"
#include "tracking/events/log_files.h"

namespace tracking::event_shipping {

struct ShippableLine {
  uint64_t seq = 0;
  int64_t time_ms = 0;
  std::string_view bytes;  // without its line feed; valid until the next call to next()
  LogPosition position;
  uint32_t length = 0;     // with its line feed
};

struct CursorSettings {
  size_t chunk_bytes = 1 << 20;     // read at once (a line is a few hundred bytes)
  int64_t list_interval_ms = 50;    // at a file's end, how often to look for a later file
};

// The "seq" and "time_ms" a line begins with ({"seq":N,"time_ms":T,...}); false for
// anything else.
bool parse_line_head(std::string_view line, uint64_t& seq, int64_t& time_ms);

class LogCursor {
 public:
  // From position (a checkpoint's: a line there, or the first file after it when that file
  // is gone); lines before next_seq are passed over.
  LogCursor(std::string core_directory, LogPosition position, uint64_t next_seq, CursorSettings settings = {});
  ~LogCursor();
  LogCursor(const LogCursor&) = delete;
  LogCursor& operator=(const LogCursor&) = delete;

  // The next whole line on disk; nullopt when there is none yet (or the disk refused a read
  // or a sync: error() says why, and the next call tries again).
  std::optional<ShippableLine> next(int64_t now_ms);
  // Puts the line next() just returned back: the next call returns it again (a line that
  // did not fit the run being built starts the next one). Only right after next().
  void unread();
  // Where the line next() returns next starts (or would start).
  LogPosition position() const { return {file_first_seq_, read_offset_ + parsed_}; }
  // The time of the line at position(), when one is buffered or on disk whole; for the lag.
  std::optional<int64_t> peek_time_ms();
  uint64_t torn_lines() const { return torn_lines_; }
  const std::string& error() const { return error_; }
  const std::string& directory() const { return directory_; }

 private:
  bool open_file();
  bool refill();
  bool at_final_end(int64_t now_ms);
  void move_to_next_file();
  void close_file();
  bool later_file_exists(int64_t now_ms);

  const std::string directory_;
  const CursorSettings settings_;
  uint64_t next_seq_;          // lines below it are passed over
  uint64_t last_seq_ = 0;      // of the last line returned, for the order check
  bool any_returned_ = false;
  // What unread() restores: the state before the line last returned.
  size_t returned_at_ = 0;          // its start in buffer_
  uint64_t last_seq_before_ = 0;
  bool any_returned_before_ = false;
  bool can_unread_ = false;
  uint64_t file_first_seq_;    // the file the cursor is in
  int fd_ = -1;
  uint64_t read_offset_;       // file offset of buffer_[0]
  uint64_t synced_through_ = 0;  // bytes of the open file known to be on disk
  std::string buffer_;
  size_t used_ = 0;            // valid bytes in buffer_
  size_t parsed_ = 0;          // bytes of buffer_ consumed
  int64_t listed_ms_ = -1;     // when the directory was last listed at a file's end
  bool later_seen_ = false;    // a later file exists (then the open file no longer grows)
  uint64_t torn_lines_ = 0;
  std::string error_;
};

}  // namespace tracking::event_shipping
