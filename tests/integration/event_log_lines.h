#pragma once
// The event log as the tests read it (docs/events.md): every whole line of
// every core's files, with every documented member kept (absent members stay nullopt), so a
// test can check the shape of a line as well as count lines. Reading waits by polling: the
// server writes lines asynchronously and syncs them every --events-flush.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace integration {

struct EventLine {
  std::string text;      // the line as stored
  uint32_t file_core = 0;  // N of the events/core-N directory it was read from
  std::optional<uint64_t> seq;
  std::optional<int64_t> time_ms;
  std::string kind;
  std::optional<std::string> event;
  std::optional<uint64_t> ad, creative, placement;
  std::optional<std::string> request;
  std::optional<std::string> user;
  std::optional<uint64_t> core;
  std::optional<bool> duplicate;
  std::optional<int64_t> issued_s, expires_s;
  std::optional<std::string> token;
  std::optional<int64_t> code;
};

// Every line that is a whole JSON object, file by file in name order within each core.
// A line without a final newline (torn) is left out; so is a line that is not JSON, counted
// in *unreadable when given.
std::vector<EventLine> read_event_lines(const std::string& state_dir, size_t* unreadable = nullptr);

// Polls (every 20 ms, up to timeout) until done(lines) holds; returns the last lines read.
// The caller checks the result with its own assertions: a timeout only ends the wait.
std::vector<EventLine> wait_for_event_lines(const std::string& state_dir,
                                            const std::function<bool(const std::vector<EventLine>&)>& done,
                                            std::chrono::milliseconds timeout = std::chrono::seconds(10));

// Lines of one kind; impression lines split by duplicate.
size_t count_kind(const std::vector<EventLine>& lines, std::string_view kind);
size_t count_impressions(const std::vector<EventLine>& lines, bool duplicate);

// Whether text is n lowercase hex digits.
bool is_hex(std::string_view text, size_t n);

}  // namespace integration
