#pragma once
// The flags of the TLS listener (docs/tls.md): where it listens and with which certificates.
// Without --tls-listen there is none, and nothing here is needed.
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "runtime/socket_address.h"
#include "tls/server_context.h"

namespace service {

struct TlsListenSettings {
  std::optional<runtime::SocketAddress> listen;   // --tls-listen
  std::vector<tls::CertificateFiles> certificates;  // --tls-cert and --tls-key, in pairs
  bool admin_tls = false;                           // --admin-tls: the admin plane over TLS too
  std::string ticket_keys;                          // --tls-ticket-keys (empty: in the state directory)
  bool on() const { return listen.has_value(); }
  // Whether the cores need OpenSSL contexts at all.
  bool any() const { return on() || admin_tls; }
};

// Reads the TLS flags into settings; the error is one line naming the flag. The files are
// not read here (tls::ServerContext::load, at start).
absl::Status resolve_tls_flags(TlsListenSettings& settings);

}  // namespace service
