#pragma once
// One log line in logfmt, the format of docs/operations.md "Logs":
//
//   ts=2025-06-01T12:00:00.123Z level=warn component=redis core=1 msg="redis 10.0.0.7:6379: connection lost: ..."
//
// Pure functions over a fixed buffer: a failed check (check.cc) writes its last line with
// them without allocating.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "runtime/log/level.h"

namespace runtime::log {

// A line's own buffer: whatever does not fit is left out, and cut() says so.
class LineText {
 public:
  LineText(char* data, size_t capacity) : data_(data), capacity_(capacity) {}
  void append(std::string_view text);
  void push_back(char c);
  // The closing newline, over the last byte when the buffer is full: a cut line still ends.
  void end_line();
  std::string_view view() const { return {data_, size_}; }
  bool cut() const { return cut_; }

 private:
  char* data_;
  size_t capacity_;
  size_t size_ = 0;
  bool cut_ = false;
};

// What every line starts with.
struct LineHead {
  int64_t wall_ms = 0;
  Level level = Level::kInfo;
  std::string_view component;
  int32_t core = -1;  // the reactor that said it; -1 for any other thread (no core field)
};

// A numeric field between the head and msg (a summary's count, the size of a cut message).
struct LineField {
  std::string_view key;
  uint64_t value;
};

// A value escaped into a line grows at most this many times (a control byte or a byte that
// is not UTF-8 is 6 characters): a buffer of kMaxEscapeGrowth * message + kHeadBytes never cuts.
inline constexpr size_t kMaxEscapeGrowth = 6;
inline constexpr size_t kHeadBytes = 256;

// RFC 3339 in UTC with milliseconds: "2025-06-01T12:00:00.123Z".
inline constexpr size_t kTimestampBytes = 24;
void format_timestamp(int64_t wall_ms, char (&out)[kTimestampBytes]);

// value as logfmt has it: bare when it is a non-empty run of printable ASCII without space,
// '=', '"' or '\'; else quoted, with \" \\ \n \r \t, \u00XX for other control bytes and
// \ufffd for each byte that is not part of valid UTF-8, so a message never breaks its line
// and a parser always reads back text.
void append_value(LineText& out, std::string_view value);

// "ts=... level=... component=... [core=N] [key=value...] msg=...\n".
void append_line(LineText& out, const LineHead& head, std::span<const LineField> fields, std::string_view message);

}  // namespace runtime::log
