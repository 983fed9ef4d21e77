#pragma once
// The moment and the user most cap tests use: one definition for the folder's test target.
#include <cstdint>

#include "caps/user_key.h"

namespace caps::testing {

inline constexpr int64_t kNow = 1'790'000'000;
inline const uint64_t kUser = user_key("u1");

}  // namespace caps::testing
