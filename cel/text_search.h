#pragma once
// Substring search in linear time. std::string_view::find compares at every position, so
// a needle that almost matches everywhere ("aaa…ab" in "aaa…a") costs length times length;
// glibc's memmem is the two-way algorithm, linear in both.
#include <string.h>

#include <cstddef>
#include <string_view>

namespace cel {

// Position of the first needle in text at or after from; npos when none.
inline size_t find_text(std::string_view text, std::string_view needle, size_t from = 0) {
  if (from > text.size()) return std::string_view::npos;
  if (needle.empty()) return from;
  // Also keeps memmem from an empty text, whose data() may be null (UB even for length 0).
  if (text.size() - from < needle.size()) return std::string_view::npos;
  const void* found = memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
  return found == nullptr ? std::string_view::npos
                          : static_cast<size_t>(static_cast<const char*>(found) - text.data());
}

}  // namespace cel
