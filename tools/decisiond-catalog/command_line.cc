#include "tools/decisiond-catalog/command_line.h"

#include <charconv>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/absl_view.h"

namespace tools::decisiond_catalog {
namespace {

using runtime::av;

constexpr std::string_view kUsage =
    "usage: decisiond-catalog publish --to=nats://HOST:PORT[,HOST:PORT...]/NAME [--replicas=N] [LOGIN] FILE\n"
    "       decisiond-catalog status  --to=nats://HOST:PORT[,HOST:PORT...]/NAME [--json] [LOGIN]\n"
    "       LOGIN: --user=USER --password-file=FILE | --creds=FILE\n"
    "Publishes catalogs to NATS JetStream for the nodes started with --catalog=nats://.../NAME,\n"
    "and lists what each node serves (docs/catalog-publication.md).\n"
    "  publish        build FILE with decisiond's own builder (refused: its errors, nothing\n"
    "                 published), then store it as NAME's next revision; every node watching\n"
    "                 NAME fetches it and swaps it in\n"
    "  status         NAME's latest revision, then one line per node: the revision it serves,\n"
    "                 when it loaded it, the last revision it could not fetch or build and why\n"
    "  --to           the NATS servers (any of the cluster) and the catalog's name: letters,\n"
    "                 digits, '-' and '_'\n"
    "  --replicas     replicas of the stream and buckets when publish creates them (default 3;\n"
    "                 at most the number of servers); existing ones are used as they are\n"
    "  --json         status as one JSON object\n"
    "  --timeout      how long to wait for a NATS server, such as 5s or 500ms (default 5s)\n"
    "  --user, --password-file  a NATS user and a file holding its password (mode 0600)\n"
    "  --creds        a NATS credentials file (JWT and NKey seed, mode 0600) instead\n"
    "Exit status: 0 done; 1 no NATS server answered within --timeout, or the servers refused\n"
    "(the reason on standard error); 2 bad arguments, a FILE that cannot be read, or a\n"
    "catalog decisiond would refuse (nothing published).\n";

absl::Status bad(std::string_view why) { return absl::InvalidArgumentError(av(why)); }

std::optional<std::chrono::milliseconds> parse_timeout(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || value <= 0) return std::nullopt;
  const std::string_view unit(end, text.data() + text.size() - end);
  if (unit == "ms") return std::chrono::milliseconds(value);
  if (unit == "s") return std::chrono::milliseconds(value * 1000);
  return std::nullopt;
}

absl::Status set_flag(std::string_view name, std::string_view value, CommandLine& line) {
  if (name == "--to") {
    absl::StatusOr<nats_jetstream::ServerList> to = nats_jetstream::parse_named_server_list(value);
    if (!to.ok()) return bad(absl::StrCat("--to: ", to.status().message()));
    line.to = *std::move(to);
    return absl::OkStatus();
  }
  if (name == "--replicas") {
    int replicas = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), replicas);
    if (value.empty() || error != std::errc() || end != value.data() + value.size() || replicas < 1 || replicas > 5) {
      return bad(absl::StrCat("--replicas must be 1 to 5, not \"", av(value), "\""));
    }
    line.replicas = replicas;
    return absl::OkStatus();
  }
  if (name == "--timeout") {
    const std::optional<std::chrono::milliseconds> timeout = parse_timeout(value);
    if (!timeout) return bad(absl::StrCat("--timeout must be a duration such as 5s or 500ms, not \"", av(value), "\""));
    line.timeout = *timeout;
    return absl::OkStatus();
  }
  if (name == "--user" || name == "--password-file" || name == "--creds") {
    std::string& field = name == "--user" ? line.user : name == "--creds" ? line.creds_file : line.password_file;
    if (value.empty()) return bad(absl::StrCat(av(name), " must not be empty"));
    field = std::string(value);
    return absl::OkStatus();
  }
  return bad(absl::StrCat("unknown flag ", av(name)));
}

// A flag with a value, as --name=value or --name value; i moves past a separate value.
absl::Status parse_valued_flag(std::span<const std::string_view> args, size_t& i, CommandLine& line) {
  const std::string_view arg = args[i];
  const size_t equals = arg.find('=');
  if (equals != std::string_view::npos) return set_flag(arg.substr(0, equals), arg.substr(equals + 1), line);
  if (i + 1 >= args.size()) return bad(absl::StrCat(av(arg), " lacks its value"));
  return set_flag(arg, args[++i], line);
}

}  // namespace

std::string_view usage() { return kUsage; }

absl::StatusOr<CommandLine> parse_command_line(std::span<const std::string_view> args) {
  CommandLine line;
  std::optional<std::string_view> command;
  std::vector<std::string_view> operands;
  bool replicas_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      line.help = true;
      return line;
    }
    if (arg == "--json") {
      line.json = true;
    } else if (arg.starts_with("--")) {
      replicas_given = replicas_given || arg.starts_with("--replicas");
      if (absl::Status parsed = parse_valued_flag(args, i, line); !parsed.ok()) return parsed;
    } else if (!command) {
      command = arg;
    } else {
      operands.push_back(arg);
    }
  }
  if (!command) return bad("say publish or status");
  if (*command == "publish") {
    line.command = Command::kPublish;
    if (operands.size() != 1) return bad("publish takes one catalog FILE");
    line.file = std::string(operands.front());
    if (line.json) return bad("--json goes with status only");
  } else if (*command == "status") {
    line.command = Command::kStatus;
    if (!operands.empty()) return bad(absl::StrCat("status takes no operand, not \"", av(operands.front()), "\""));
    if (replicas_given) return bad("--replicas goes with publish only");
  } else {
    return bad(absl::StrCat("unknown command \"", av(*command), "\""));
  }
  if (line.to.urls.empty()) return bad("--to=nats://HOST:PORT[,...]/NAME is required");
  return line;
}

}  // namespace tools::decisiond_catalog
