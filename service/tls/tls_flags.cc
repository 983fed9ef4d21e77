#include "service/tls/tls_flags.h"

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "service/flag_error.h"

ABSL_FLAG(std::string, tls_listen, "",
          "HTTPS listener with the public routes, host:port (SO_REUSEPORT, every core); empty: none");
ABSL_FLAG(std::vector<std::string>, tls_cert, {},
          "PEM certificate chain of the TLS listener; repeatable, in pairs with --tls-key (an ECDSA and an RSA "
          "certificate side by side, or several names chosen by SNI; the first is the default)");
ABSL_FLAG(std::vector<std::string>, tls_key, {},
          "PEM private key of the --tls-cert of the same rank (mode 0600 or stricter); repeatable");
ABSL_FLAG(std::string, tls_ticket_keys, "",
          "session ticket keys file (keys.json's format; created on first start, mode 0600): one file shared by "
          "every node lets a client resume on any node (default: <state-dir>/tls-ticket-keys.json)");
ABSL_FLAG(bool, admin_tls, false,
          "the admin plane serves TLS with the certificates of --tls-cert (its bearer token never crosses a network "
          "in clear)");

namespace service {

absl::Status resolve_tls_flags(TlsListenSettings& settings) {
  const std::string listen = absl::GetFlag(FLAGS_tls_listen);
  const std::vector<std::string> certs = absl::GetFlag(FLAGS_tls_cert);
  const std::vector<std::string> keys = absl::GetFlag(FLAGS_tls_key);
  if (certs.size() != keys.size()) {
    return invalid_flag("tls-key", absl::StrCat("one --tls-key per --tls-cert, in the same order (", certs.size(),
                                                " certificates, ", keys.size(), " keys)"));
  }
  settings.admin_tls = absl::GetFlag(FLAGS_admin_tls);
  settings.ticket_keys = absl::GetFlag(FLAGS_tls_ticket_keys);
  if (!listen.empty()) {
    auto address = runtime::SocketAddress::parse(listen);
    if (!address.ok()) return invalid_flag("tls-listen", address.status().message());
    settings.listen = *address;
  }
  if (!settings.any()) {
    if (!certs.empty()) return invalid_flag("tls-cert", "given without --tls-listen or --admin-tls");
    return absl::OkStatus();
  }
  if (certs.empty()) {
    return invalid_flag(settings.on() ? "tls-listen" : "admin-tls", "needs a certificate: --tls-cert and --tls-key");
  }
  for (size_t i = 0; i < certs.size(); ++i) settings.certificates.push_back({certs[i], keys[i]});
  return absl::OkStatus();
}

}  // namespace service
