#pragma once
// The text of keys.json (the format is described in key_ring.h). Parsing reports every
// problem at once, each named by its JSON path, the way the catalog loader does.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tracking/tokens/key_ring.h"

namespace tracking {

inline constexpr size_t kMaxKeyFileBytes = 64 * 1024;

// The whole file: the keys and the highest id ever given to a key in it.
// Wipes its keys when destroyed; move-only, so secrets are not copied around.
struct KeyFileContents {
  KeyFileContents() = default;
  KeyFileContents(KeyFileContents&& other) noexcept = default;
  KeyFileContents& operator=(KeyFileContents&& other) noexcept {
    if (this != &other) {
      wipe();
      entries = std::move(other.entries);
      last_id = other.last_id;
    }
    return *this;
  }
  KeyFileContents(const KeyFileContents&) = delete;
  KeyFileContents& operator=(const KeyFileContents&) = delete;
  ~KeyFileContents() { wipe(); }

  std::vector<KeyEntry> entries;
  // max(the file's "lastId", every entry's id): a new key takes last_id + 1, so an id is
  // never given twice, even after its key was retired and dropped from the file.
  uint16_t last_id = 0;

  void wipe() {
    for (KeyEntry& entry : entries) entry.wipe();
  }
};

// The file. InvalidArgument with "path: problem" items joined by "; ". Id uniqueness is
// KeyRing::from_entries' rule, checked there. Messages never quote the file's text.
absl::StatusOr<KeyFileContents> parse_key_file_contents(std::string_view text);

// The entries in file order (parse_key_file_contents without lastId).
absl::StatusOr<std::vector<KeyEntry>> parse_key_file(std::string_view text);

// The file text for entries, one key per line, readable by operators, with "lastId" set to
// max(last_id, every entry's id).
std::string format_key_file(std::span<const KeyEntry> entries, uint16_t last_id = 0);

}  // namespace tracking
