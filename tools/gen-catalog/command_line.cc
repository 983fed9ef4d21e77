#include "tools/gen-catalog/command_line.h"

#include <charconv>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "runtime/absl_view.h"

namespace tools::gen_catalog {
namespace {

constexpr std::string_view kUsage =
    "usage: gen-catalog [--name=value ...]\n"
    "Writes a synthetic catalog (docs/catalog.md) to standard output or --out.\n"
    "  --ads=N                    ads (default 1000)\n"
    "  --placements=N             placements slot_0001.. (default 10)\n"
    "  --advertisers=N            advertisers (default ads/50, at least 1)\n"
    "  --templates=N              templates (default 4)\n"
    "  --seed=N                   the same seed gives the same bytes (default 1)\n"
    "  --targeted-share=F         share of ads with targeting, 0..1 (default 0.5)\n"
    "  --capped-share=F           share of ads with frequency caps, 0..1 (default 0.5)\n"
    "  --video-share=F            share of video ads, 0..1 (default 0)\n"
    "  --placements-per-ad-max=N  each ad on 1..N placements (default 3)\n"
    "  --languages=en,fr,de       content languages, the first is the default language\n"
    "  --no-targeting             no targeting at all; the ads are otherwise the same\n"
    "  --out=PATH                 write to PATH rather than standard output\n"
    "  --help                     this text\n";

absl::Status bad_value(std::string_view flag, std::string_view value, std::string_view shape) {
  return absl::InvalidArgumentError(absl::StrCat("--", runtime::av(flag), " must be ",
                                                 runtime::av(shape), ", not \"", runtime::av(value),
                                                 "\""));
}

template <typename Unsigned>
absl::Status parse_unsigned(std::string_view flag, std::string_view value, Unsigned& out) {
  Unsigned parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
    return bad_value(flag, value,
                     absl::StrCat("an integer in 0..", std::numeric_limits<Unsigned>::max()));
  }
  out = parsed;
  return absl::OkStatus();
}

absl::Status parse_share(std::string_view flag, std::string_view value, double& out) {
  double parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() ||
      !(parsed >= 0 && parsed <= 1)) {
    return bad_value(flag, value, "a number in 0..1");
  }
  out = parsed;
  return absl::OkStatus();
}

absl::Status parse_languages(std::string_view value, std::vector<std::string>& out) {
  std::vector<std::string> languages = absl::StrSplit(runtime::av(value), ',');
  for (const std::string& language : languages) {
    if (language.empty()) return bad_value("languages", value, "a comma-separated list of tags");
  }
  out = std::move(languages);
  return absl::OkStatus();
}

absl::Status set_flag(std::string_view name, std::string_view value, CommandLine& line) {
  GeneratorOptions& o = line.options;
  if (name == "ads") return parse_unsigned(name, value, o.ads);
  if (name == "placements") return parse_unsigned(name, value, o.placements);
  if (name == "advertisers") return parse_unsigned(name, value, o.advertisers);
  if (name == "templates") return parse_unsigned(name, value, o.templates);
  if (name == "seed") return parse_unsigned(name, value, o.seed);
  if (name == "targeted-share") return parse_share(name, value, o.targeted_share);
  if (name == "capped-share") return parse_share(name, value, o.capped_share);
  if (name == "video-share") return parse_share(name, value, o.video_share);
  if (name == "placements-per-ad-max") return parse_unsigned(name, value, o.placements_per_ad_max);
  if (name == "languages") return parse_languages(value, o.languages);
  if (name == "out") {
    if (value.empty()) return bad_value(name, value, "a file path");
    line.out_path = std::string(value);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown flag --", runtime::av(name)));
}

}  // namespace

absl::StatusOr<CommandLine> parse_command_line(std::span<const std::string_view> args) {
  CommandLine line;
  for (std::string_view arg : args) {
    if (arg == "--help" || arg == "-h") {
      line.help = true;
      continue;
    }
    if (arg == "--no-targeting") {
      line.options.targeting = false;
      continue;
    }
    if (!arg.starts_with("--")) {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected argument \"", runtime::av(arg), "\""));
    }
    const size_t equals = arg.find('=');
    if (equals == std::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat(runtime::av(arg), " takes a value (",
                                                     runtime::av(arg), "=...) or is unknown"));
    }
    if (absl::Status status = set_flag(arg.substr(2, equals - 2), arg.substr(equals + 1), line);
        !status.ok()) {
      return status;
    }
  }
  if (absl::Status status = check_options(line.options); !status.ok()) return status;
  return line;
}

std::string_view usage() { return kUsage; }

}  // namespace tools::gen_catalog
