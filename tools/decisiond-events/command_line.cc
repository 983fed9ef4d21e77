#include "tools/decisiond-events/command_line.h"

#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/time/time.h"

namespace decisiond_events {

namespace {
constexpr const char* kUsage =
    "usage: decisiond-events --state-dir DIR [--state-dir DIR...] (print|summary) [filters] [--json]\n"
    "       decisiond-events --from nats://HOST:PORT[,HOST:PORT...] [--stream NAME] [--node ID]\n"
    "                        [--creds FILE] (print|summary) [filters] [--json]\n"
    "filters: [--kind K] [--ad ID] [--user U] [--since T] [--until T]\n"
    "       T: unix milliseconds or RFC 3339 (2026-11-24T10:00:00Z)\n"
    "print writes the matching lines, merged by time; summary counts them by kind, ad and hour,\n"
    "  and gives the impressions that count by ad and hour, and the invalid traffic left out.\n"
    "exit status: 0; 1 when the stream cannot be read; 2 for bad arguments\n";

std::optional<int64_t> parse_time_ms(const std::string& text) {
  int64_t ms = 0;
  if (absl::SimpleAtoi(text, &ms)) return ms;
  absl::Time t;
  std::string error;
  if (absl::ParseTime(absl::RFC3339_full, text, &t, &error)) return absl::ToUnixMillis(t);
  return std::nullopt;
}

// Applies one --flag value; false with *error set when the value is not valid.
bool apply_flag(Options& o, const std::string& flag, const std::string& value, std::string* error) {
  if (flag == "--state-dir") {
    o.state_dirs.push_back(value);
  } else if (flag == "--from") {
    o.from = value;
  } else if (flag == "--stream") {
    o.stream = value;
  } else if (flag == "--node") {
    o.node = value;
  } else if (flag == "--creds") {
    o.creds_file = value;
  } else if (flag == "--kind") {
    o.kind = value;
  } else if (flag == "--ad") {
    uint64_t ad = 0;
    if (!absl::SimpleAtoi(value, &ad)) {
      *error = "--ad must be an ad id";
      return false;
    }
    o.ad = ad;
  } else if (flag == "--user") {
    o.user = value;
  } else if (flag == "--since" || flag == "--until") {
    const std::optional<int64_t> ms = parse_time_ms(value);
    if (!ms) {
      *error = "--since and --until take unix milliseconds or an RFC 3339 time";
      return false;
    }
    (flag == "--since" ? o.since_ms : o.until_ms) = ms;
  } else {
    *error = "unknown argument " + flag;
    return false;
  }
  return true;
}

std::optional<std::string> source_problem(const Options& o) {
  if (o.state_dirs.empty() == o.from.empty()) return "give --state-dir DIR (one or more) or --from nats://..., not both";
  if (o.from.empty() && (!o.node.empty() || !o.creds_file.empty())) return "--node and --creds go with --from";
  if (o.command.empty()) return "say print or summary";
  return std::nullopt;
}
}  // namespace

std::optional<Options> parse_command_line(int argc, char** argv, std::string* error) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--json") {
      o.json = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      return o;
    }
    if (arg == "print" || arg == "summary") {
      if (!o.command.empty()) {
        *error = "one command only";
        return std::nullopt;
      }
      o.command = arg;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      *error = "unknown argument " + arg;
      return std::nullopt;
    }
    std::string value;
    if (const size_t equals = arg.find('='); equals != std::string::npos) {
      value = arg.substr(equals + 1);
      arg = arg.substr(0, equals);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      *error = "a flag lacks its value";
      return std::nullopt;
    }
    if (!apply_flag(o, arg, value, error)) return std::nullopt;
  }
  if (const std::optional<std::string> problem = source_problem(o)) {
    *error = *problem;
    return std::nullopt;
  }
  return o;
}

int usage(const std::string& why) {
  std::fprintf(stderr, "decisiond-events: %s\n%s", why.c_str(), kUsage);
  return 2;
}

int help() {
  std::fputs(kUsage, stdout);
  return 0;
}

}  // namespace decisiond_events
