#pragma once
// gen-catalog's flags, --name=value, parsed by hand: a dozen flags do not need abseil's
// global flag registry, and a pure parser can be tested.
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tools/gen-catalog/catalog_generator.h"

namespace tools::gen_catalog {

struct CommandLine {
  GeneratorOptions options;
  std::string out_path;  // empty: standard output
  bool help = false;
};

// args without the program name. The options are checked (check_options): an error is one
// line naming the flag.
absl::StatusOr<CommandLine> parse_command_line(std::span<const std::string_view> args);

std::string_view usage();

}  // namespace tools::gen_catalog
