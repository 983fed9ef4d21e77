#pragma once
// Debian's abseil is built with its own absl::string_view (ABSL_OPTION_USE_STD_STRING_VIEW
// is 0), which does not convert from std::string_view. Our code speaks std::string_view;
// this is the one bridge to abseil's string functions.
#include <string_view>

#include "absl/strings/string_view.h"

namespace runtime {

inline absl::string_view av(std::string_view s) { return absl::string_view(s.data(), s.size()); }
inline std::string_view sv(absl::string_view s) { return std::string_view(s.data(), s.size()); }

}  // namespace runtime
