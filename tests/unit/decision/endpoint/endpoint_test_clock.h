#pragma once
// The moment the endpoint tests decide at: one definition for the folder's test target.
#include <cstdint>

namespace decision::endpoint::testing {

inline constexpr int64_t kNowNs = 1'795'737'600'000'000'000;  // 2026-11-27 00:00:00 UTC

}  // namespace decision::endpoint::testing
