#pragma once
// How much a line matters, most severe first: a line is written when its level is at or
// above the one in force (--log-level, docs/flags.md).
#include <cstdint>
#include <optional>
#include <string_view>

namespace runtime::log {

enum class Level : uint8_t { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

inline constexpr size_t kLevels = 4;

// "error", "warn", "info", "debug": the flag's values and the lines' level field alike.
std::string_view level_name(Level level);
std::optional<Level> parse_level(std::string_view name);

}  // namespace runtime::log
