#pragma once
// The error values CEL's functions return, by the specification's names for them, and the
// double bounds that decide when a conversion or a comparison leaves the integers' range.
#include <cstdint>

#include "cel/value.h"

namespace cel {

// 2^63 and 2^64: the first doubles past INT64_MAX and UINT64_MAX (which doubles cannot hold).
inline constexpr double kTwoTo63 = 9223372036854775808.0;
inline constexpr double kTwoTo64 = 18446744073709551616.0;

inline constexpr Value no_overload(uint32_t offset) { return Value::error(ErrorCode::kNoMatchingOverload, offset); }
inline constexpr Value overflow(uint32_t offset) { return Value::error(ErrorCode::kOverflow, offset); }
inline constexpr Value range_error(uint32_t offset) { return Value::error(ErrorCode::kRangeError, offset); }
inline constexpr Value bad_conversion(uint32_t offset) { return Value::error(ErrorCode::kBadConversion, offset); }
inline constexpr Value limit_exceeded(uint32_t offset) { return Value::error(ErrorCode::kLimitExceeded, offset); }

}  // namespace cel
