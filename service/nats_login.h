#pragma once
// How a set of flags logs in to NATS: a user with a password file, a NATS credentials file
// (JWT and NKey seed), or neither; both files 0600 or stricter (secret_file.h). The flags'
// names differ by user (--catalog-user, or decisiond-catalog's --user), the rules do not.
#include <string>

#include "absl/status/statusor.h"
#include "nats_jetstream/connection.h"

namespace service {

struct NatsLoginFlags {
  const char* user;           // flag names without "--"
  const char* password_file;
  const char* creds;
  const char* servers;        // the flag naming the servers, for "needs --<servers>"
};

struct NatsLoginValues {
  bool servers_given = false;
  std::string user;
  std::string password_file;
  std::string creds_file;
};

// The credentials, the password read; errors are one line naming the flag (a file others
// may read, a user without a password file, a user and a credentials file both, ...).
absl::StatusOr<nats_jetstream::Credentials> resolve_nats_login(const NatsLoginFlags& flags,
                                                               const NatsLoginValues& values);

}  // namespace service
