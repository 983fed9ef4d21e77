#pragma once
// decisiond-catalog's arguments, parsed by hand like decisiond-keys': two commands and a
// few flags do not need abseil's global flag registry, and a pure parser can be tested.
#include <chrono>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "nats_jetstream/server_list.h"

namespace tools::decisiond_catalog {

enum class Command { kPublish, kStatus };

struct CommandLine {
  Command command = Command::kStatus;
  nats_jetstream::ServerList to;      // --to nats://host:port[,...]/<name>
  std::string file;                   // publish: the catalog
  int replicas = 3;                   // publish: of the stream and buckets it creates
  bool json = false;                  // status as one JSON object
  std::chrono::milliseconds timeout{5000};  // to reach a server
  std::string user;                   // --user, with --password-file
  std::string password_file;          // mode 0600 or stricter
  std::string creds_file;             // --creds: a NATS credentials file, instead of a user
  bool help = false;
};

// args without the program name. An error is one line naming the argument.
absl::StatusOr<CommandLine> parse_command_line(std::span<const std::string_view> args);

std::string_view usage();

}  // namespace tools::decisiond_catalog
