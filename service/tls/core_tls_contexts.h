#pragma once
// Each core's OpenSSL configuration (docs/tls.md), made on the main thread at start and at
// every SIGHUP: the ticket keys read once, then one tls::ServerContext per core from the
// certificate files (no SSL_CTX is shared between threads). The error names the flag and
// the file: at start it stops decisiond (exit 2), at a reload it keeps the set in force.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "service/tls/tls_flags.h"
#include "tls/server_context.h"

namespace service {

// first_start: the ticket keys file is made when missing (at a reload it must exist).
absl::StatusOr<std::vector<std::unique_ptr<tls::ServerContext>>> load_core_tls_contexts(
    const TlsListenSettings& tls, const std::string& state_dir, uint32_t cores, bool first_start);

}  // namespace service
