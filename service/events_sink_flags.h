#pragma once
// The flags of event shipping (docs/events.md "Shipping to NATS JetStream"): where the event
// log goes, as whom, into which stream, and how long shipped files are kept. Without
// --events-sink nothing is shipped and nothing removed.
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
  absl::Duration retain;            // --events-retain: shipped files older than this go
  bool enabled() const { return !url.empty(); }
};

// Reads the flags into sink; node_id (--node-id, resolved) names the subject and message
// ids. The error is one line naming the flag.
absl::Status resolve_events_sink_flags(const std::string& node_id, EventsSinkSettings& sink);

}  // namespace service
