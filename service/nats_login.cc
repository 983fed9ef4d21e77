#include "service/nats_login.h"

#include "absl/strings/str_cat.h"
#include "service/flag_error.h"
#include "service/secret_file.h"

namespace service {

absl::StatusOr<nats_jetstream::Credentials> resolve_nats_login(const NatsLoginFlags& flags,
                                                               const NatsLoginValues& values) {
  const bool user = !values.user.empty();
  const bool password = !values.password_file.empty();
  const bool creds = !values.creds_file.empty();
  const std::string needs_servers = absl::StrCat("needs --", flags.servers, "=nats://...");
  if (!values.servers_given) {
    if (user) return invalid_flag(flags.user, needs_servers);
    if (password) return invalid_flag(flags.password_file, needs_servers);
    if (creds) return invalid_flag(flags.creds, needs_servers);
    return nats_jetstream::Credentials{};
  }
  if (creds && (user || password)) return invalid_flag(flags.creds, "a credentials file or a user and password, not both");
  if (user != password) {
    return user ? invalid_flag(flags.user, absl::StrCat("needs --", flags.password_file))
                : invalid_flag(flags.password_file, absl::StrCat("needs --", flags.user));
  }
  nats_jetstream::Credentials out;
  if (user) {
    absl::StatusOr<std::string> secret = read_secret_file(flags.password_file, values.password_file);
    if (!secret.ok()) return secret.status();
    out.user = values.user;
    out.password = *std::move(secret);
  }
  if (creds) {
    if (absl::Status checked = check_secret_file(flags.creds, values.creds_file); !checked.ok()) return checked;
    out.creds_file = values.creds_file;
  }
  return out;
}

}  // namespace service
