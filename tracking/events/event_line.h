#pragma once
// The JSON line of an event (docs/events.md). Written without a DOM, straight into the
// log's buffer; read back with simdjson by recovery and tools/decisiond-events.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tracking/events/event_record.h"

namespace tracking::events {

// Appends the record as one line, "\n" included. Allocates only if out must grow.
void append_event_line(const EventRecord& record, uint64_t seq, std::string& out);

// A line read back. Strings view the line.
struct ParsedEvent {
  std::string_view line;  // as stored, without its newline
  uint64_t seq = 0;
  int64_t time_ms = 0;
  std::string_view kind;
  std::string_view name;
  uint64_t ad = 0;
  uint64_t creative = 0;
  uint64_t placement = 0;
  std::string_view request;  // 32 hex digits
  std::optional<std::string_view> user;  // JSON-unescaped into the parser's storage
  uint32_t core = 0;
  bool tracking = false;
  bool duplicate = false;
  int64_t issued_s = 0;
  int64_t expires_s = 0;
  uint64_t token_id = 0;
  std::string_view store;  // "unapplied", "reapplied" or empty (event_record.h)
  uint64_t attempt = 0;    // with store "unapplied" or "reapplied"
  std::optional<int64_t> code;
  std::optional<int64_t> reason;
  std::string_view invalid;  // "robot", or empty: the call counts (event_record.h)
};

// Reads lines; one per core of recovery or the tool. Not thread-safe.
class EventLineParser {
 public:
  EventLineParser();
  ~EventLineParser();
  EventLineParser(const EventLineParser&) = delete;
  EventLineParser& operator=(const EventLineParser&) = delete;

  // False for a line that is not a whole event (a torn last line, garbage): skip it.
  bool parse(std::string_view line, ParsedEvent& out);

 private:
  struct State;
  State* state_;
};

}  // namespace tracking::events
