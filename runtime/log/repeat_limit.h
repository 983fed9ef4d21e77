#pragma once
// The rate limit on lines that repeat: lines alike (one component, one message template)
// open a window; the first kLinesPerWindow of it are written, the rest are counted and held
// back, and when the window ends one summary line says how many were held back and what the
// last of them said. A flood of one line (a reconnect loop, a disk that refuses every write)
// costs a few lines per window, not a line per occurrence; different lines never hide each
// other. Time comes in as an argument, so tests step it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/log/level.h"

namespace runtime::log {

inline constexpr int64_t kRepeatWindowMs = 10'000;
inline constexpr uint32_t kLinesPerWindow = 10;

// Which lines are alike: one call site's printf template in one component. Both are
// string literals, so their addresses name them.
struct TemplateKey {
  const char* component;
  const char* format;
  bool operator==(const TemplateKey&) const = default;
};

// What a window held back, for its summary line.
struct HeldBack {
  const char* component;
  Level level;  // the last held-back line's
  uint64_t lines;
  int64_t window_end_ms;
  std::string last_message;
};

class RepeatLimit {
 public:
  RepeatLimit(int64_t window_ms = kRepeatWindowMs, uint32_t lines_per_window = kLinesPerWindow)
      : window_ms_(window_ms), lines_per_window_(lines_per_window) {}

  // True when the line is to be written; false when it is held back (counted, and its
  // message kept for the summary). Windows past now_ms must have been ended first.
  bool admit(TemplateKey key, Level level, std::string_view message, int64_t now_ms);

  // Ends the windows that are over at now_ms (all of them with everything = true, at exit);
  // those that held lines back come out, for their summaries.
  std::vector<HeldBack> end_windows(int64_t now_ms, bool everything = false);

  // When the first window holding lines back ends; nullopt when none holds any.
  std::optional<int64_t> next_summary_ms() const;

 private:
  struct KeyHash {
    size_t operator()(const TemplateKey& k) const {
      return std::hash<const void*>()(k.component) * 31 + std::hash<const void*>()(k.format);
    }
  };
  struct Window {
    int64_t end_ms = 0;
    uint32_t written = 0;
    uint64_t held_back = 0;
    Level level = Level::kInfo;
    std::string last_message;
  };

  int64_t window_ms_;
  uint32_t lines_per_window_;
  std::unordered_map<TemplateKey, Window, KeyHash> windows_;
};

}  // namespace runtime::log
