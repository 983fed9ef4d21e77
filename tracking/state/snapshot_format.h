#pragma once
// A core's snapshot file, <state-dir>/snapshots/core-<N>.snap (docs/events.md):
//
//   header   "DCSNAP02" | u32 core | u32 cores | u32 shards | u64 start_seq | i64 written_s
//   counted  u32 n | n x (u64 ad | u64 impressions)
//   shards   for each shard in order: u64 seq | u32 caps bytes | caps | u32 dedup bytes | dedup
//   trailer  u64 XXH3 of everything before it | "DCSNAPND"
//
// (host byte order: a snapshot is read back by the machine kind that wrote it.) A shard's
// seq is the core's next event sequence number when the shard was written: it holds every
// impression of that shard logged before seq and none after, so replay applies the
// shard's impressions from seq on. start_seq is the smallest of them: replay of the core's
// log starts there. The snapshot is written a shard at a time while the core serves.
//
// counted is the core's impressions counted by ad over its log's whole life, as of
// start_seq (lines from start_seq on are counted again at start): delivery goals
// (docs/pacing.md). A "DCSNAP01" file, written before it, has no such section and is read
// as counting nothing: start-up then counts that core's log from its first line.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tracking/impressions/counted_by_ad.h"

namespace tracking::state {

inline constexpr std::string_view kSnapshotMagic = "DCSNAP02";
inline constexpr std::string_view kSnapshotMagicWithoutCounts = "DCSNAP01";
inline constexpr std::string_view kSnapshotEndMagic = "DCSNAPND";

std::string snapshots_dir(std::string_view state_dir);
std::string snapshot_path(std::string_view state_dir, uint32_t core);

struct SnapshotHeader {
  uint32_t core = 0;
  uint32_t cores = 0;
  uint32_t shards = 0;
  uint64_t start_seq = 0;
  int64_t written_s = 0;
};

void append_header(const SnapshotHeader& header, std::string& out);
void append_counted(const impressions::CountedByAd& counted, std::string& out);
// One shard's record: seq, then the two tables' serialized shards (each in the versioned
// shard format of caps/shard_format.h), framed with their lengths.
void append_shard(uint64_t seq, std::string_view caps_bytes, std::string_view dedup_bytes, std::string& out);

struct SnapshotShard {
  uint64_t seq = 0;
  std::string_view caps;   // views into the file's bytes
  std::string_view dedup;
};

struct SnapshotView {
  SnapshotHeader header;
  impressions::CountedByAd counted;  // empty in a DCSNAP01 file
  bool has_counted = false;          // false: a DCSNAP01 file
  std::vector<SnapshotShard> shards;  // header.shards of them
};

// Checks the frame and the checksum of a whole file's bytes and splits it; the views point
// into bytes. A torn or altered file is refused with the reason.
absl::StatusOr<SnapshotView> parse_snapshot(std::string_view bytes);

// A snapshot file's header, read with its last bytes only: the end magic must be there (a
// snapshot is renamed into place whole, so a file without it is another file or a damaged
// one); the checksum is not verified. For a question asked often (which log lines start-up
// replays: docs/events.md "Shipping to NATS JetStream", retention), not for loading.
absl::StatusOr<SnapshotHeader> read_snapshot_header(const std::string& path);

}  // namespace tracking::state
