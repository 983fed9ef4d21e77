#include "tools/decisiond-catalog/nats_session.h"

#include "absl/strings/str_cat.h"
#include "service/nats_login.h"

namespace tools::decisiond_catalog {

absl::StatusOr<NatsSession> connect(const CommandLine& line) {
  nats_jetstream::ConnectionSettings settings;
  settings.servers = line.to;
  settings.client_name = "decisiond-catalog";
  absl::StatusOr<nats_jetstream::Credentials> login = service::resolve_nats_login(
      {"user", "password-file", "creds", "to"}, {true, line.user, line.password_file, line.creds_file});
  if (!login.ok()) return login.status();
  settings.credentials = *std::move(login);
  // Each attempt and each JetStream request may take the whole budget; a chunk's
  // acknowledgement from three replicas on a busy cluster can take a while.
  settings.timeout = line.timeout;
  absl::StatusOr<std::unique_ptr<nats_jetstream::JetStreamConnection>> connection =
      nats_jetstream::JetStreamConnection::open(settings);
  if (!connection.ok()) return connection.status();
  NatsSession session;
  session.connection = *std::move(connection);
  if (!session.connection->wait_connected(line.timeout)) {
    if (session.connection->state() == nats_jetstream::ConnectionState::kClosed) {
      // Closed without connecting: the library says only "no server available"; one attempt
      // of our own says why (a refused login: "Authentication Violation").
      const absl::Status why = nats_jetstream::JetStreamConnection::probe(settings);
      if (!why.ok()) {
        return absl::UnavailableError(absl::StrCat("the NATS servers at ", nats_jetstream::describe(line.to),
                                                   " closed the connection: ", why.message()));
      }
    }
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
