#pragma once
// The minimum support durations (docs/versions-and-languages.md, "Versions"): a version
// stays served at least 12 months after its successor's release (parallel support), and is
// deprecated at least 3 months before its sunset. Operators schedule phases, so a shorter
// schedule is served as given; start-up says, one line per shortfall, where it falls short.
#include <string>
#include <vector>

#include "api_versions/version_table.h"

namespace api_versions {

inline constexpr int kParallelSupportMonths = 12;
inline constexpr int kDeprecatedMonths = 3;

// One sentence per shortfall, naming the version and its dates; empty when none.
std::vector<std::string> schedule_shortfalls(const VersionTable& table);

}  // namespace api_versions
