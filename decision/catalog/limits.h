#pragma once
// Every bound the catalog loader enforces, in one place. A catalog past a bound is refused
// with an error at the offending path, never truncated silently.
#include <cstddef>
#include <cstdint>

namespace decision::catalog {

// Largest catalog text accepted (file or admin upload).
inline constexpr size_t kMaxCatalogBytes = size_t{256} << 20;
// Errors listed per load; past it, one last item says how many more were found. Keeps a
// 422 reply for a systematically broken 100k-ad catalog readable.
inline constexpr size_t kMaxReportedErrors = 1000;
// Ad weight: the weighted sampler sums weights of a tier in 64 bits, so this bound keeps
// the sum exact for any tier size that fits in memory.
inline constexpr uint64_t kMaxAdWeight = 1'000'000;
inline constexpr uint64_t kMaxPriorityWeight = 1'000'000;
inline constexpr size_t kMaxFrequencyCapsPerAd = 8;
inline constexpr uint64_t kMaxCapImpressions = 1'000'000;
// Frequency-cap state is kept for the longest window; a year bounds its memory.
inline constexpr uint64_t kMaxCapWindowSeconds = 366ull * 24 * 3600;
// A delivery goal's impressions: far above any flight's traffic, and exact in a double.
inline constexpr uint64_t kMaxGoalImpressions = uint64_t{1} << 40;
inline constexpr size_t kMaxCreativesPerAd = 64;
inline constexpr size_t kMaxPlacementsPerAd = 1024;
inline constexpr size_t kMaxUrlBytes = 8192;
// A creative's clickUrl travels inside every click token, whose payload has room for this
// much (tracking/tokens/tracking_event.h kMaxClickUrlBytes; the response module checks they agree).
inline constexpr size_t kMaxClickUrlBytes = 2048;
inline constexpr size_t kMaxLanguageTagBytes = 35;
inline constexpr size_t kMaxCustomEventNameBytes = 64;
inline constexpr size_t kMaxCustomExpressionBytes = 4096;
inline constexpr uint64_t kMaxVideoDimension = 16384;
// Below a day: VAST's Duration is an xs:time (HH:MM:SS.mmm), whose hours stop at 23.
inline constexpr double kMaxVideoDurationSeconds = 24.0 * 3600 - 1;
// An Open Measurement vendor key travels in verification_not_executed tokens
// (tracking/tokens/tracking_event.h kMaxVendorBytes).
inline constexpr size_t kMaxVendorKeyBytes = 256;
// Nesting of the catalog document (simdjson's default); it has five levels of its own.
inline constexpr uint32_t kMaxJsonDepth = 1024;

}  // namespace decision::catalog
