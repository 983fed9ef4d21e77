#include "tools/decisiond-keys/command_line.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "runtime/absl_view.h"

namespace tools::decisiond_keys {
namespace {

constexpr std::string_view kUsage =
    "usage: decisiond-keys --state-dir=DIR (create | list [--json] | rotate | retire --id=N)\n"
    "Manages DIR/keys.json, the keys of tracking tokens and signed VAST tags (docs/keys.md).\n"
    "  create        write keys.json with one new key (id 1); refused if it exists\n"
    "  list          ids, roles and creation times of the keys; never their bytes\n"
    "  rotate        add a new key that signs; the others stay to verify what they signed\n"
    "  retire --id=N drop key N (never the signing key); what it signed is refused after\n"
    "  --state-dir   decisiond's --state-dir; default: $DECISIOND_STATE_DIR\n"
    "  --json        list as one JSON object\n"
    "decisiond reads keys.json when it starts: restart it after rotate and retire.\n"
    "Exit status: 0 done, 1 refused (the reason on standard error), 2 bad arguments.\n";

struct NamedCommand {
  std::string_view name;
  Command command;
};
constexpr NamedCommand kCommands[] = {
    {"create", Command::kCreate}, {"list", Command::kList}, {"rotate", Command::kRotate}, {"retire", Command::kRetire}};

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

}  // namespace

std::string_view usage() { return kUsage; }

absl::StatusOr<CommandLine> parse_command_line(std::span<const std::string_view> args,
                                               std::optional<std::string_view> state_dir_from_env) {
  CommandLine line;
  std::optional<std::string_view> command;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      line.help = true;
      return line;
    }
    if (arg == "--json") {
      line.json = true;
      continue;
    }
    if (arg.starts_with("--")) {
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
      } else if (name == "--id") {
        if (absl::Status parsed = parse_id(value, line.id); !parsed.ok()) return parsed;
      } else {
        return absl::InvalidArgumentError(absl::StrCat("unknown flag ", runtime::av(name)));
      }
      continue;
    }
    if (command) return absl::InvalidArgumentError(absl::StrCat("one command only, not also \"", runtime::av(arg), "\""));
    command = arg;
  }
  if (!command) return absl::InvalidArgumentError("say create, list, rotate or retire");
  bool known = false;
  for (const NamedCommand& named : kCommands) {
    if (named.name == *command) {
      line.command = named.command;
      known = true;
    }
  }
  if (!known) return absl::InvalidArgumentError(absl::StrCat("unknown command \"", runtime::av(*command), "\""));
  if (line.state_dir.empty() && state_dir_from_env && !state_dir_from_env->empty()) {
    line.state_dir = std::string(*state_dir_from_env);
  }
  if (line.state_dir.empty()) {
    return absl::InvalidArgumentError("--state-dir is required (or DECISIOND_STATE_DIR)");
  }
  if (line.command == Command::kRetire && !line.id) return absl::InvalidArgumentError("retire needs --id=N");
  if (line.command != Command::kRetire && line.id) {
    return absl::InvalidArgumentError("--id goes with retire only");
  }
  if (line.json && line.command != Command::kList) return absl::InvalidArgumentError("--json goes with list only");
  return line;
}

}  // namespace tools::decisiond_keys
