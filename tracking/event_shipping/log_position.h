#pragma once
// Where a line of a core's event log starts: its file (named by the file's first seq,
// tracking/events/log_files.h) and its byte offset there.
#include <cstdint>

namespace tracking::event_shipping {

struct LogPosition {
  uint64_t file_first_seq = 0;
  uint64_t offset = 0;
  bool operator==(const LogPosition&) const = default;
};

}  // namespace tracking::event_shipping
