#include "service/tls/core_tls_contexts.h"

#include "absl/strings/str_cat.h"
#include "service/tls/ticket_keys.h"

namespace service {

absl::StatusOr<std::vector<std::unique_ptr<tls::ServerContext>>> load_core_tls_contexts(
    const TlsListenSettings& tls, const std::string& state_dir, uint32_t cores, bool first_start) {
  absl::StatusOr<std::vector<tls::TicketKey>> ticket_keys =
      load_ticket_keys(ticket_key_file(tls.ticket_keys, state_dir), first_start);
  if (!ticket_keys.ok()) {
    return absl::Status(ticket_keys.status().code(), absl::StrCat("--tls-ticket-keys: ", ticket_keys.status().message()));
  }
  std::vector<std::unique_ptr<tls::ServerContext>> contexts;
  for (uint32_t core = 0; core < cores; ++core) {
    absl::StatusOr<std::unique_ptr<tls::ServerContext>> loaded = tls::ServerContext::load(tls.certificates, *ticket_keys);
    if (!loaded.ok()) {
      return absl::Status(loaded.status().code(), absl::StrCat("--tls-cert/--tls-key: ", loaded.status().message()));
    }
    contexts.push_back(*std::move(loaded));
  }
  return contexts;
}

}  // namespace service
