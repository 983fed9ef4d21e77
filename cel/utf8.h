#pragma once
// The UTF-8 a CEL implementation needs: strings are sequences of code points (size()
// counts them, string(bytes) checks them), sources are UTF-8 (columns count them).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cel {

// Length of the longest prefix of text that is well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF).
size_t valid_utf8_prefix(std::string_view text);
inline bool is_valid_utf8(std::string_view text) { return valid_utf8_prefix(text) == text.size(); }
// Code points in valid UTF-8 (bytes that do not continue a sequence).
size_t code_point_count(std::string_view text);
// Appends the encoding of a scalar value (not a surrogate, at most U+10FFFF).
void append_utf8(uint32_t code_point, std::string& out);

}  // namespace cel
