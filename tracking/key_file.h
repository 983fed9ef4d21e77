#pragma once
// The text of keys.json (the format is described in key_ring.h). Parsing reports every
// problem at once, each named by its JSON path, the way the catalog loader does.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tracking/key_ring.h"

namespace tracking {

inline constexpr size_t kMaxKeyFileBytes = 64 * 1024;

// The entries in file order. InvalidArgument with "path: problem" items joined by "; ".
// Id uniqueness is KeyRing::from_entries' rule, checked there.
absl::StatusOr<std::vector<KeyEntry>> parse_key_file(std::string_view text);

// The file text for entries, one key per line, readable by operators.
std::string format_key_file(std::span<const KeyEntry> entries);

}  // namespace tracking
