#pragma once
// The values of literal tokens (cel-spec doc/langdef.md, "String and Bytes Values" and
// "Numeric Values"). In a string, \xhh and octal escapes denote code points (encoded as
// UTF-8); in bytes they denote bytes, and \u / \U are refused.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cel {

struct LiteralError {
  std::string_view message;
  size_t offset = 0;  // in the token text
};

// token_text: a kString or kBytes token, prefix and quotes included. Fills out or error.
bool decode_quoted(std::string_view token_text, std::string& out, LiteralError& error);

// The magnitude of a kInt or kUint token (decimal or 0x hexadecimal, u suffix ignored);
// nullopt past UINT64_MAX.
std::optional<uint64_t> integer_magnitude(std::string_view token_text);
// A kDouble token. Past DBL_MAX: nullopt; below the smallest subnormal: zero (as IEEE
// arithmetic would round it, and as cel-go reads it).
std::optional<double> double_literal(std::string_view token_text);

}  // namespace cel
