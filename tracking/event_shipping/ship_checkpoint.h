#pragma once
// A core's shipping checkpoint, <state-dir>/events/core-<N>/shipped (docs/events.md
// "Shipping to NATS JetStream"): one line, "next_seq=N file=F offset=O stream_floor=S".
// Written whole (a temporary file, fdatasync, rename), so a crash leaves the old one or the
// new one, never a torn one.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tracking/event_shipping/log_position.h"

namespace tracking::event_shipping {

struct ShipCheckpoint {
  // Every line of the core's log before this seq is in the stream (acknowledged).
  uint64_t next_seq = 0;
  // Where reading resumes: the first line not known to be in the stream, or the end of the
  // last one that is.
  LogPosition position;
  // Every message of this log at or after next_seq that the stream may hold has a stream
  // sequence above this: the read-back after a restart starts there.
  uint64_t stream_floor = 0;
  bool operator==(const ShipCheckpoint&) const = default;
};

std::string checkpoint_path(std::string_view core_directory);
// nullopt when there is none: nothing of this log was ever published. An error for a file
// that is not a checkpoint.
absl::StatusOr<std::optional<ShipCheckpoint>> read_checkpoint(const std::string& core_directory);
// sync_directory: the rename made durable too (the first checkpoint of a log must be on
// disk before its first publish: no checkpoint means nothing published).
absl::Status write_checkpoint(const std::string& core_directory, const ShipCheckpoint& checkpoint,
                              bool sync_directory);

}  // namespace tracking::event_shipping
