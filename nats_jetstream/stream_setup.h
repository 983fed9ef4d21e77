#pragma once
// A JetStream stream made to exist: created with the wanted settings when missing, used as
// it is when an operator (or another node) made it already, with what differs said once,
// since changing a live stream's replicas or limits is the operator's decision, not a node's.
#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace nats_jetstream {

struct StreamSpec {
  std::string name;
  std::vector<std::string> subjects;
  int replicas = 3;
  std::chrono::seconds duplicate_window{120};  // message ids remembered this long
  int64_t max_message_bytes = -1;              // -1: the server's limit
};

struct StreamSetup {
  bool created = false;
  // Empty when the stream has the settings asked for; else "replicas 1 (wanted 3), ..." for
  // a log line.
  std::string differences;
  // The largest message the stream stores (headers and data); -1: the servers' limit.
  int64_t max_message_bytes = -1;
};

// One JetStream API request or two (info, then create); errors name the stream and what
// the servers answered (no JetStream, too few servers for the replicas, no permission).
absl::StatusOr<StreamSetup> ensure_stream(jsCtx* jetstream, const StreamSpec& spec);

}  // namespace nats_jetstream
