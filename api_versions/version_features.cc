#include "api_versions/version_features.h"

#include <array>

namespace api_versions {
namespace {

struct BuiltInFeatures {
  absl::CivilDay version;
  VersionFeatures features;
};

// Ascending by version.
constexpr std::array<BuiltInFeatures, 2> kBuiltIn = {{
    {absl::CivilDay(2025, 1, 1), kFeatures20250101},
    {absl::CivilDay(2025, 11, 1), kFeatures20251101},
}};
static_assert(kBuiltIn[0].version < kBuiltIn[1].version, "the built-in rows ascend by version");

}  // namespace

VersionFeatures features_of(absl::CivilDay version) {
  VersionFeatures features = kBuiltIn.front().features;
  for (const BuiltInFeatures& row : kBuiltIn) {
    if (row.version <= version) features = row.features;
  }
  return features;
}

}  // namespace api_versions
