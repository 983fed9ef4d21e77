#pragma once
// Which files of a core's event log may go once they are shipped (docs/events.md "Shipping to
// NATS JetStream", "Retention"). Only with a sink: without one, decisiond removes nothing.
// A file goes when every rule holds:
//   closed       a later file exists (the core writes no more to it);
//   shipped      every line of it is acknowledged (the checkpoint's next seq has reached the
//                next file's first seq);
//   old          last written more than --events-retain ago;
//   not replayed start-up's recovery replays the log from the core's snapshot on: the file
//                ends before the snapshot's start seq (no snapshot: the whole log is
//                replayed, and nothing goes);
//   not scanned  start-up's scan for unapplied impressions (cluster mode) reads the files
//                written within two tracking TTLs: none of those goes either.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tracking::event_shipping {

struct RetentionRules {
  int64_t retain_s = 7 * 24 * 3600;   // --events-retain
  int64_t keep_written_within_s = 0;  // 2 x --tracking-ttl
};

// The paths that may be removed now, oldest first.
std::vector<std::string> removable_log_files(const std::string& core_directory, uint64_t shipped_next,
                                             std::optional<uint64_t> replay_from_seq, int64_t now_s,
                                             const RetentionRules& rules);

// Where start-up's recovery starts replaying core's log: its snapshot's start seq; nullopt
// when it has none (the whole log is replayed).
std::optional<uint64_t> replay_start_seq(const std::string& state_dir, uint32_t core);

}  // namespace tracking::event_shipping
