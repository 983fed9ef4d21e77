#pragma once
// The flags of event shipping (docs/events.md "Shipping to NATS JetStream"): where the event
// log goes, as whom, into which stream, in runs of what size, and how long shipped files are
// kept. Without --events-sink nothing is shipped and nothing removed.
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nats_jetstream/server_list.h"

namespace service {

struct EventsSinkSettings {
  std::string url;                  // --events-sink: empty, or nats://host:port[,host:port...]
  nats_jetstream::ServerList servers;
  std::string user;                 // --events-sink-user
  std::string password;             // read from --events-sink-password-file; never a flag itself
  std::string creds_file;           // --events-sink-creds: a NATS credentials file
  std::string stream;               // --events-stream
  int replicas = 3;                 // --events-replicas: when decisiond creates the stream
  uint32_t run_lines = 1024;        // --events-run-lines: lines of one message at most
  uint32_t run_bytes = 256 << 10;   // --events-run-bytes: bytes of one message's lines at most
  absl::Duration run_wait;          // --events-run-wait: new lines gather this long for a run
  absl::Duration retain;            // --events-retain: shipped files older than this go
  bool enabled() const { return !url.empty(); }
};

// Reads the flags into sink; node_id (--node-id, resolved) names the subject and message
// ids. The error is one line naming the flag.
absl::Status resolve_events_sink_flags(const std::string& node_id, EventsSinkSettings& sink);

}  // namespace service
