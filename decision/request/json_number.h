#pragma once
// JSON number literals, checked and converted by hand. simdjson's ondemand API checks a
// number only when it is read, and refuses valid literals it cannot represent (1e400): we
// check the grammar of every literal ourselves (RFC 8259 section 6) so that "not JSON"
// (400) and "a JSON number out of range" (422) never mix, and so that integer-ness is
// decided on the literal, not on a rounded double.
#include <cstdint>
#include <optional>
#include <string_view>

namespace decision::request {

// The token without the JSON whitespace simdjson leaves after it.
std::string_view trim_token(std::string_view raw);

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view token);

// The value of a valid JSON number literal when that value is an integer that fits in
// int64: "3", "3.0", "0.3e1", "30e-1" all give 3; "2.5" and "1e30" give nothing.
std::optional<int64_t> integral_value(std::string_view token);

// One or more ASCII digits (leading zeros allowed), as an unsigned 64-bit value; nothing on
// an empty string, any other byte, or overflow.
std::optional<uint64_t> digits_value(std::string_view digits);

}  // namespace decision::request
