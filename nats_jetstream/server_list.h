#pragma once
// NATS servers as the operator writes them: "nats://host:port[,host:port...]", optionally
// followed by "/<name>" where a flag names something kept in NATS (a published catalog).
// Host names are allowed: the NATS client resolves them on its own threads, never on a
// reactor.
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace nats_jetstream {

struct ServerList {
  std::vector<std::string> urls;  // "nats://host:port" each, as the client library takes them
  std::string name;               // what follows the last '/', when the form has one
};

// "nats://host:port[,host:port...]"; errors name what is wrong (missing scheme, empty
// entry, bad port, a trailing path where none belongs).
absl::StatusOr<ServerList> parse_server_list(std::string_view text);
// "nats://host:port[,host:port...]/<name>", name of letters, digits, '-' and '_' (it
// becomes part of stream and key names).
absl::StatusOr<ServerList> parse_named_server_list(std::string_view text);

// The servers again as one flag value, for messages: "nats://a:1,b:2".
std::string describe(const ServerList& servers);

}  // namespace nats_jetstream
