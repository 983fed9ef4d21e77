#pragma once
// Reads a core's event log back, rotated and live files alike, in sequence order. A line
// that is not a whole event (the torn last line of a crash, or anything else) is skipped
// and counted, never fatal.
#include <cstdint>
#include <functional>
#include <string>

#include "tracking/events/event_line.h"

namespace tracking::events {

struct ReadStats {
  uint64_t files = 0;
  uint64_t lines = 0;       // whole events visited
  uint64_t torn_lines = 0;  // skipped
  uint64_t bytes = 0;
};

// Visits every event of core_directory whose seq is at least from_seq, starting with the
// file that holds from_seq. The event's strings live during the call only.
ReadStats read_core_log(const std::string& core_directory, uint64_t from_seq,
                        const std::function<void(const ParsedEvent&)>& visit);

}  // namespace tracking::events
