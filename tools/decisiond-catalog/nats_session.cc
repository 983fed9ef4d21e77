#include "tools/decisiond-catalog/nats_session.h"

#include "absl/strings/str_cat.h"

namespace tools::decisiond_catalog {

absl::StatusOr<NatsSession> connect(const CommandLine& line) {
  nats_jetstream::ConnectionSettings settings;
  settings.servers = line.to;
  settings.client_name = "decisiond-catalog";
  // Each attempt and each JetStream request may take the whole budget; a chunk's
  // acknowledgement from three replicas on a busy cluster can take a while.
  settings.timeout = line.timeout;
  absl::StatusOr<std::unique_ptr<nats_jetstream::JetStreamConnection>> connection =
      nats_jetstream::JetStreamConnection::open(settings);
  if (!connection.ok()) return connection.status();
  NatsSession session;
  session.connection = *std::move(connection);
  if (!session.connection->wait_connected(line.timeout)) {
    const std::string error = session.connection->last_error();
    return absl::UnavailableError(absl::StrCat("no NATS server answered at ", nats_jetstream::describe(line.to),
                                               " within ", line.timeout.count(), " ms",
                                               error.empty() ? "" : ": ", error));
  }
  absl::StatusOr<nats_jetstream::JetStreamPtr> jetstream = session.connection->jetstream();
  if (!jetstream.ok()) return jetstream.status();
  session.jetstream = *std::move(jetstream);
  return session;
}

}  // namespace tools::decisiond_catalog
