#include "runtime/log/level.h"

namespace runtime::log {

namespace {
constexpr std::string_view kNames[kLevels] = {"error", "warn", "info", "debug"};
}  // namespace

std::string_view level_name(Level level) { return kNames[static_cast<size_t>(level)]; }

std::optional<Level> parse_level(std::string_view name) {
  for (size_t i = 0; i < kLevels; ++i) {
    if (kNames[i] == name) return static_cast<Level>(i);
  }
  return std::nullopt;
}

}  // namespace runtime::log
