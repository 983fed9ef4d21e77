#pragma once
// The moment and the cap the frequency-cap benchmarks use: 3 impressions a day per ad.
#include <cstdint>

#include "caps/cap_store.h"

inline constexpr int64_t kNow = 1'790'000'000;
inline const caps::CapRule kCap[] = {{3, 86400}};
