#pragma once
// Loads abseil flags from the environment (DECISIOND_<NAME>), then the command line and
// any --flagfile, later sources winning.
//
// Why not absl::ParseCommandLine: docs/flags.md spells flags with dashes (--admin-listen) where
// abseil names are identifiers (admin_listen), also inside flag files; and abseil exits
// with status 1 on a bad value where we must exit 2. Values are still parsed and checked
// by abseil's own flag types (CommandLineFlag::ParseFrom).
#include <set>
#include <string>

#include "absl/status/status.h"

namespace service {

struct FlagLoadResult {
  bool help_requested = false;
  bool version_requested = false;  // --version: print it and exit, nothing else
  // Repeatable flags (--tls-cert, --tls-key) met so far on the command line and in flag
  // files: each later occurrence adds to the list instead of replacing it.
  std::set<std::string> repeated;
};

// environ: "NAME=value" strings, null-terminated.
absl::Status load_flags(int argc, char** argv, char** environ, FlagLoadResult& result);
std::string flags_usage(const char* program);

}  // namespace service
