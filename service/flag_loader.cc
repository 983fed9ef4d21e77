#include "service/flag_loader.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"

namespace service {

namespace {
constexpr int kMaxFlagfileDepth = 8;
constexpr absl::string_view kEnvPrefix = "DECISIOND_";

// Only our own flags, not those of any library that happens to define some.
// decisiond's flags are defined in service/flags.cc and, for cluster mode,
// service/cluster_flags.cc and service/events_sink_flags.cc; abseil's own and the
// libraries' are not ours.
bool is_ours(const absl::CommandLineFlag& flag) {
  return absl::StrContains(flag.Filename(), "service/flags.cc") ||
         absl::StrContains(flag.Filename(), "service/cluster_flags.cc") ||
         absl::StrContains(flag.Filename(), "service/tls/tls_flags.cc") ||
         absl::StrContains(flag.Filename(), "service/client_address/client_address_flags.cc") ||
         absl::StrContains(flag.Filename(), "service/compression_flags.cc") ||
         absl::StrContains(flag.Filename(), "service/events_sink_flags.cc");
}

std::string dashed(absl::string_view name) { return absl::StrReplaceAll(name, {{"_", "-"}}); }

// Flags given once per item (a list flag's items, one occurrence each).
bool is_repeatable(const absl::CommandLineFlag& flag) {
  return flag.Name() == "tls_cert" || flag.Name() == "tls_key";
}

absl::CommandLineFlag* find_ours(absl::string_view name) {
  const std::string key = absl::StrReplaceAll(name, {{"-", "_"}});
  absl::CommandLineFlag* flag = absl::FindCommandLineFlag(key);
  return flag != nullptr && is_ours(*flag) ? flag : nullptr;
}

absl::Status set(absl::CommandLineFlag& flag, absl::string_view value, absl::string_view source) {
  std::string error;
  if (!flag.ParseFrom(value, &error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid --", dashed(flag.Name()), "='", value, "' (", source, "): ", error));
  }
  return absl::OkStatus();
}

absl::Status load_args(const std::vector<std::string>& args, absl::string_view source, int depth,
                       FlagLoadResult& result);

absl::Status load_flagfile(const std::string& path, int depth, FlagLoadResult& result) {
  if (depth >= kMaxFlagfileDepth) {
    return absl::InvalidArgumentError(absl::StrCat("--flagfile nesting deeper than ", kMaxFlagfileDepth, " at '", path, "'"));
  }
  std::ifstream in(path);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("invalid --flagfile: cannot read '", path, "'"));
  std::vector<std::string> args;
  std::string line;
  while (std::getline(in, line)) {
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty() || text.front() == '#') continue;
    args.emplace_back(text);
  }
  return load_args(args, absl::StrCat("flagfile ", path), depth + 1, result);
}

absl::Status load_args(const std::vector<std::string>& args, absl::string_view source, int depth,
                       FlagLoadResult& result) {
  for (size_t i = 0; i < args.size(); ++i) {
    absl::string_view arg = args[i];
    if (!absl::ConsumePrefix(&arg, "--") && !absl::ConsumePrefix(&arg, "-")) {
      return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", args[i], "' (", source, ")"));
    }
    const size_t eq = arg.find('=');
    const absl::string_view name = arg.substr(0, eq);
    std::optional<std::string> value;
    if (eq != absl::string_view::npos) value = std::string(arg.substr(eq + 1));
    if (name == "help" || name == "h") {
      result.help_requested = true;
      continue;
    }
    if (name == "version") {
      result.version_requested = true;
      continue;
    }
    if (name == "flagfile") {
      if (!value) {
        if (i + 1 >= args.size()) return absl::InvalidArgumentError("--flagfile needs a path");
        value = args[++i];
      }
      if (absl::Status s = load_flagfile(*value, depth, result); !s.ok()) return s;
      continue;
    }
    absl::CommandLineFlag* flag = find_ours(name);
    if (flag == nullptr && !value && absl::StartsWith(name, "no")) {
      // --nopin
      absl::CommandLineFlag* negated = find_ours(name.substr(2));
      if (negated != nullptr && negated->IsOfType<bool>()) {
        if (absl::Status s = set(*negated, "false", source); !s.ok()) return s;
        continue;
      }
    }
    if (flag == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name, " (", source, "); see --help"));
    }
    if (!value) {
      if (flag->IsOfType<bool>()) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return absl::InvalidArgumentError(absl::StrCat("--", dashed(flag->Name()), " needs a value"));
      }
    }
    if (is_repeatable(*flag) && !result.repeated.insert(std::string(flag->Name())).second) {
      value = absl::StrCat(flag->CurrentValue(), ",", *value);
    }
    if (absl::Status s = set(*flag, *value, source); !s.ok()) return s;
  }
  return absl::OkStatus();
}
}  // namespace

absl::Status load_flags(int argc, char** argv, char** environ, FlagLoadResult& result) {
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    absl::string_view entry = *e;
    if (!absl::ConsumePrefix(&entry, kEnvPrefix)) continue;
    const size_t eq = entry.find('=');
    if (eq == absl::string_view::npos) continue;
    const std::string name = absl::AsciiStrToLower(entry.substr(0, eq));
    absl::CommandLineFlag* flag = find_ours(name);
    const std::string source = absl::StrCat("from ", kEnvPrefix, entry.substr(0, eq));
    if (flag == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag ", source));
    }
    if (absl::Status s = set(*flag, entry.substr(eq + 1), source); !s.ok()) return s;
  }
  std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  return load_args(args, "command line", 0, result);
}

std::string flags_usage(const char* program) {
  std::vector<absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (is_ours(*flag)) flags.push_back(flag);
  }
  std::sort(flags.begin(), flags.end(),
            [](auto* a, auto* b) { return a->Name() < b->Name(); });
  std::string text = absl::StrCat(
      "usage: ", program, " [--flag=value ...] [--flagfile=FILE] | --version | --help\n"
      "Serves ad decisions. Every flag may also come from the environment as DECISIOND_<NAME>\n"
      "(for example DECISIOND_ADMIN_LISTEN); the command line wins.\n\n");
  for (auto* flag : flags) {
    absl::StrAppend(&text, "  --", dashed(flag->Name()), "  (default: ", flag->DefaultValue(), ")\n      ",
                    flag->Help(), "\n");
  }
  return text;
}

}  // namespace service
