#pragma once
// One connection for one command: opened, then waited for at most --timeout, since a tool
// run by an operator or a deployment script must say "unreachable" rather than wait forever
// as a node does.
#include <memory>

#include "absl/status/statusor.h"
#include "nats_jetstream/connection.h"
#include "tools/decisiond-catalog/command_line.h"

namespace tools::decisiond_catalog {

struct NatsSession {
  std::unique_ptr<nats_jetstream::JetStreamConnection> connection;
  nats_jetstream::JetStreamPtr jetstream{nullptr, &jsCtx_Destroy};
};

// Unavailable, naming the servers and the last error, when none answered in time;
// InvalidArgument for login flags that cannot work (a password file others may read, ...).
absl::StatusOr<NatsSession> connect(const CommandLine& line);

}  // namespace tools::decisiond_catalog
