#pragma once
// decisiond-events' arguments: where the events come from (state directories, or a NATS
// JetStream stream the nodes ship to), the command and the filters.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace decisiond_events {

struct Options {
  std::vector<std::string> state_dirs;  // --state-dir, once per node
  std::string from;                     // --from nats://host:port[,...]
  std::string stream = "decisiond-events";
  std::string node;                     // --node: one node's subject of the stream
  std::string creds_file;               // --creds: a NATS credentials file
  std::string command;                  // print or summary
  std::optional<std::string> kind;
  std::optional<uint64_t> ad;
  std::optional<std::string> user;
  std::optional<int64_t> since_ms;
  std::optional<int64_t> until_ms;
  bool json = false;
  bool help = false;  // --help or -h: the usage on standard output, exit 0
};

// nullopt with *error set when the arguments are not a valid command line.
std::optional<Options> parse_command_line(int argc, char** argv, std::string* error);
// Prints why and the usage to stderr; returns the exit status for bad arguments (2).
int usage(const std::string& why);
// Prints the usage to stdout; returns 0.
int help();

}  // namespace decisiond_events
