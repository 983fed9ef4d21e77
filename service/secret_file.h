#pragma once
// A secret a flag names a file for (a store's password, NATS credentials): never on the
// command line, and never in a file others may read, since a secret in a world-readable file
// is as good as on the command line. Errors are one line naming the flag.
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace service {

// The file exists and only its owner may read it (mode 0600 or stricter).
absl::Status check_secret_file(absl::string_view flag, const std::string& path);
// Its text without trailing whitespace; not empty.
absl::StatusOr<std::string> read_secret_file(absl::string_view flag, const std::string& path);

}  // namespace service
