#include "runtime/log/repeat_limit.h"

#include <algorithm>

namespace runtime::log {

bool RepeatLimit::admit(TemplateKey key, Level level, std::string_view message, int64_t now_ms) {
  auto [at, opened] = windows_.try_emplace(key);
  Window& window = at->second;
  if (opened) window.end_ms = now_ms + window_ms_;
  if (window.written < lines_per_window_) {
    ++window.written;
    return true;
  }
  ++window.held_back;
  window.level = level;
  window.last_message.assign(message);
  return false;
}

std::vector<HeldBack> RepeatLimit::end_windows(int64_t now_ms, bool everything) {
  std::vector<HeldBack> ended;
  for (auto at = windows_.begin(); at != windows_.end();) {
    Window& window = at->second;
    if (!everything && window.end_ms > now_ms) {
      ++at;
      continue;
    }
    if (window.held_back > 0) {
      ended.push_back({at->first.component, window.level, window.held_back, std::min(window.end_ms, now_ms),
                       std::move(window.last_message)});
    }
    at = windows_.erase(at);
  }
  // The map's order is its hash's: summaries come out in the order their windows ended.
  std::sort(ended.begin(), ended.end(),
            [](const HeldBack& a, const HeldBack& b) { return a.window_end_ms < b.window_end_ms; });
  return ended;
}

std::optional<int64_t> RepeatLimit::next_summary_ms() const {
  std::optional<int64_t> next;
  for (const auto& [key, window] : windows_) {
    if (window.held_back > 0 && (!next || window.end_ms < *next)) next = window.end_ms;
  }
  return next;
}

}  // namespace runtime::log
