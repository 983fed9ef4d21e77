#pragma once
// decisiond-keys' arguments, parsed by hand like gen-catalog's: a handful of commands and
// flags do not need abseil's global flag registry, and a pure parser can be tested.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tools::decisiond_keys {

enum class Command { kCreate, kList, kFingerprint, kCompare, kRotate, kPromote, kRetire };

struct CommandLine {
  Command command = Command::kList;
  std::string state_dir;           // every command but compare (unless --key-file)
  std::string key_file;            // --key-file: another file of keys.json's format (the TLS ticket keys)
  std::optional<uint16_t> id;      // retire's and promote's key
  bool json = false;               // list and fingerprint as JSON
  bool no_sign = false;            // rotate: the new key only verifies
  std::vector<std::string> files;  // compare's two keys.json files (or state directories)
  bool help = false;
};

// args without the program name; state_dir_from_env is DECISIOND_STATE_DIR (the variable
// decisiond reads for --state-dir), used when --state-dir is not given. An error is one line
// naming the argument.
absl::StatusOr<CommandLine> parse_command_line(std::span<const std::string_view> args,
                                               std::optional<std::string_view> state_dir_from_env = std::nullopt);

std::string_view usage();

}  // namespace tools::decisiond_keys
