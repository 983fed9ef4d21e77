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

namespace service {

absl::Status resolve_tls_flags(TlsListenSettings& settings) {
  const std::string listen = absl::GetFlag(FLAGS_tls_listen);
  const std::vector<std::string> certs = absl::GetFlag(FLAGS_tls_cert);
  const std::vector<std::string> keys = absl::GetFlag(FLAGS_tls_key);
  if (certs.size() != keys.size()) {
    return invalid_flag("tls-key", absl::StrCat("one --tls-key per --tls-cert, in the same order (", certs.size(),
                                                " certificates, ", keys.size(), " keys)"));
  }
  if (listen.empty()) {
    if (!certs.empty()) return invalid_flag("tls-cert", "given without --tls-listen");
    return absl::OkStatus();
  }
  auto address = runtime::SocketAddress::parse(listen);
  if (!address.ok()) return invalid_flag("tls-listen", address.status().message());
  if (certs.empty()) return invalid_flag("tls-listen", "needs a certificate: --tls-cert and --tls-key");
  settings.listen = *address;
  for (size_t i = 0; i < certs.size(); ++i) settings.certificates.push_back({certs[i], keys[i]});
  return absl::OkStatus();
}

}  // namespace service
