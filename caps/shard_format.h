#pragma once
// The bytes of one serialized shard of a ShardedTable (caps/sharded_table.h), as the
// snapshot writer stores them (docs/caps.md "Shard format"):
//
//   u16 version (kShardFormatVersion) | u16 entry bytes | u32 count | count x entry bytes
//
// An entry is the first `entry bytes` bytes of the table's Entry struct (key, expiry and
// payload; padding at the end is left out). Host byte order: a snapshot is read back by the
// machine kind that wrote it. The version changes whenever an Entry's layout or meaning
// does, so a build never reads counts it would misunderstand; the entry size also keeps a
// cap shard from being loaded into the dedup set or the other way round.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace caps {

inline constexpr uint16_t kShardFormatVersion = 1;

struct ShardHeader {
  uint16_t version = kShardFormatVersion;
  uint16_t entry_bytes = 0;
  uint32_t count = 0;
};
static_assert(sizeof(ShardHeader) == 8);

inline void append_shard_header(uint16_t entry_bytes, uint32_t count, std::string& out) {
  const ShardHeader header{kShardFormatVersion, entry_bytes, count};
  out.append(reinterpret_cast<const char*>(&header), sizeof(header));
}

// Reads the header of bytes into header, checked against the entry size expected and the
// length of what follows it, and removes it from bytes.
inline absl::Status take_shard_header(std::string_view& bytes, uint16_t entry_bytes, ShardHeader& header) {
  if (bytes.size() < sizeof(header)) return absl::DataLossError("shard: shorter than its header");
  std::memcpy(&header, bytes.data(), sizeof(header));
  if (header.version != kShardFormatVersion) {
    return absl::DataLossError("shard: format version " + std::to_string(header.version) + ", this build reads " +
                               std::to_string(kShardFormatVersion));
  }
  if (header.entry_bytes != entry_bytes) {
    return absl::DataLossError("shard: entries of " + std::to_string(header.entry_bytes) + " bytes, expected " +
                               std::to_string(entry_bytes) + " (another table's shard?)");
  }
  bytes.remove_prefix(sizeof(header));
  if (bytes.size() != uint64_t{header.count} * entry_bytes) {
    return absl::DataLossError("shard: " + std::to_string(bytes.size()) + " bytes of entries for a count of " +
                               std::to_string(header.count));
  }
  return absl::OkStatus();
}

}  // namespace caps
