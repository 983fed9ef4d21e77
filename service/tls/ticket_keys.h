#pragma once
// The TLS session ticket keys (docs/tls.md "Resumption on any node"): a file of the format of
// keys.json (docs/keys.md), so decisiond-keys rotates, fingerprints and compares it as it
// does keys.json, and one file copied to every node lets a client resume on any of them.
// Each entry's aesKey encrypts tickets (AES-256-CBC) and its hmacKey authenticates them;
// the first entry encrypts, every entry decrypts what it made.
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tls/server_context.h"

namespace service {

// <state-dir>/tls-ticket-keys.json unless --tls-ticket-keys names another file.
std::string ticket_key_file(const std::string& flag_value, const std::string& state_dir);

// Reads the file (create: or makes it, mode 0600, with one fresh key, as at a first start).
// Errors name the file, as keys.json's do.
absl::StatusOr<std::vector<tls::TicketKey>> load_ticket_keys(const std::string& path, bool create);

}  // namespace service
