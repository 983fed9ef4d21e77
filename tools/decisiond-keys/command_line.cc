#include "tools/decisiond-keys/command_line.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "runtime/absl_view.h"

namespace tools::decisiond_keys {
namespace {

constexpr std::string_view kUsage =
    "usage: decisiond-keys --state-dir=DIR (create | list [--json] | fingerprint [--json]\n"
    "                                       | rotate [--no-sign] | promote --id=N | retire --id=N)\n"
    "       decisiond-keys compare FILE_A FILE_B\n"
    "Manages DIR/keys.json, the keys of tracking tokens and signed VAST tags (docs/keys.md).\n"
    "  create           write keys.json with one new key (id 1); refused if it exists\n"
    "  list             ids, roles and creation times of the keys; never their bytes\n"
    "  fingerprint      list with each key's fingerprint and one for the whole set: equal on\n"
    "                   two nodes exactly when they hold the same keys with the same roles\n"
    "  compare          exit 0 when two keys.json files (or state directories) hold the same\n"
    "                   keys and signing key, 1 when not, naming what differs\n"
    "  rotate           add a new key that signs; the others stay to verify what they signed\n"
    "  rotate --no-sign add a new key that only verifies (first phase on several nodes)\n"
    "  promote --id=N   make key N the signing key (second phase); the old one still verifies\n"
    "  retire --id=N    drop key N (never the signing key); what it signed is refused after\n"
    "  --state-dir      decisiond's --state-dir; default: $DECISIOND_STATE_DIR\n"
    "  --key-file=FILE  work on FILE instead of DIR/keys.json: the TLS session ticket keys\n"
    "                   (decisiond's --tls-ticket-keys, DIR/tls-ticket-keys.json), same format\n"
    "  --json           list or fingerprint as one JSON object\n"
    "decisiond reads keys.json when it starts and on SIGHUP (systemctl reload decisiond):\n"
    "send it one after rotate, promote and retire; no restart is needed.\n"
    "Exit status: 0 done (compare: the files agree), 1 refused (compare: the files differ;\n"
    "the reason on standard error otherwise), 2 bad arguments (compare: also a file that\n"
    "cannot be read or that decisiond would refuse).\n";

struct NamedCommand {
  std::string_view name;
  Command command;
};
constexpr NamedCommand kCommands[] = {
    {"create", Command::kCreate},   {"list", Command::kList},       {"fingerprint", Command::kFingerprint},
    {"compare", Command::kCompare}, {"rotate", Command::kRotate},   {"promote", Command::kPromote},
    {"retire", Command::kRetire}};
constexpr size_t kCompareFiles = 2;

absl::Status parse_id(std::string_view value, std::optional<uint16_t>& id) {
  uint32_t parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || parsed < 1 || parsed > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--id must be a key id in 1..65535, not \"", runtime::av(value), "\""));
  }
  id = static_cast<uint16_t>(parsed);
  return absl::OkStatus();
}

// A flag with a value, as --name=value or --name value; i moves past a separate value.
absl::Status parse_valued_flag(std::span<const std::string_view> args, size_t& i, CommandLine& line) {
  const std::string_view arg = args[i];
  std::string_view name = arg;
  std::string_view value;
  const size_t equals = arg.find('=');
  if (equals != std::string_view::npos) {
    name = arg.substr(0, equals);
    value = arg.substr(equals + 1);
  } else if (i + 1 < args.size()) {
    value = args[++i];
  } else {
    return absl::InvalidArgumentError(absl::StrCat(runtime::av(arg), " lacks its value"));
  }
  if (name == "--state-dir") {
    if (value.empty()) return absl::InvalidArgumentError("--state-dir must name a directory");
    line.state_dir = std::string(value);
    return absl::OkStatus();
  }
  if (name == "--key-file") {
    if (value.empty()) return absl::InvalidArgumentError("--key-file must name a file");
    line.key_file = std::string(value);
    return absl::OkStatus();
  }
  if (name == "--id") return parse_id(value, line.id);
  return absl::InvalidArgumentError(absl::StrCat("unknown flag ", runtime::av(name)));
}

absl::Status set_command(std::string_view name, CommandLine& line) {
  for (const NamedCommand& named : kCommands) {
    if (named.name == name) {
      line.command = named.command;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown command \"", runtime::av(name), "\""));
}

// The rules between a command and its flags, once every argument is read.
absl::Status check_command(CommandLine& line, std::optional<std::string_view> state_dir_from_env) {
  const Command command = line.command;
  if (command == Command::kCompare) {
    if (!line.state_dir.empty() || !line.key_file.empty()) {
      return absl::InvalidArgumentError("compare takes two files, not --state-dir or --key-file (name DIR/keys.json)");
    }
    if (line.files.size() != kCompareFiles) {
      return absl::InvalidArgumentError("compare needs two files: FILE_A FILE_B");
    }
  } else {
    if (line.state_dir.empty() && state_dir_from_env && !state_dir_from_env->empty()) {
      line.state_dir = std::string(*state_dir_from_env);
    }
    if (line.state_dir.empty() && line.key_file.empty()) {
      return absl::InvalidArgumentError("--state-dir is required (or DECISIOND_STATE_DIR, or --key-file)");
    }
  }
  const bool takes_id = command == Command::kRetire || command == Command::kPromote;
  if (takes_id && !line.id) {
    const char* name = command == Command::kRetire ? "retire" : "promote";
    return absl::InvalidArgumentError(absl::StrCat(name, " needs --id=N"));
  }
  if (!takes_id && line.id) return absl::InvalidArgumentError("--id goes with retire and promote only");
  if (line.json && command != Command::kList && command != Command::kFingerprint) {
    return absl::InvalidArgumentError("--json goes with list and fingerprint only");
  }
  if (line.no_sign && command != Command::kRotate) return absl::InvalidArgumentError("--no-sign goes with rotate only");
  return absl::OkStatus();
}

}  // namespace

std::string_view usage() { return kUsage; }

absl::StatusOr<CommandLine> parse_command_line(std::span<const std::string_view> args,
                                               std::optional<std::string_view> state_dir_from_env) {
  CommandLine line;
  std::optional<std::string_view> command;
  std::vector<std::string_view> operands;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      line.help = true;
      return line;
    }
    if (arg == "--json" || arg == "--no-sign") {
      (arg == "--json" ? line.json : line.no_sign) = true;
    } else if (arg.starts_with("--")) {
      if (absl::Status parsed = parse_valued_flag(args, i, line); !parsed.ok()) return parsed;
    } else if (!command) {
      command = arg;
    } else {
      operands.push_back(arg);
    }
  }
  if (!command) {
    return absl::InvalidArgumentError("say create, list, fingerprint, compare, rotate, promote or retire");
  }
  if (absl::Status known = set_command(*command, line); !known.ok()) return known;
  if (line.command != Command::kCompare && !operands.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("one command only, not also \"", runtime::av(operands.front()), "\""));
  }
  line.files.assign(operands.begin(), operands.end());
  if (absl::Status checked = check_command(line, state_dir_from_env); !checked.ok()) return checked;
  return line;
}

}  // namespace tools::decisiond_keys
