#pragma once
// Unpadded base64url (RFC 4648 section 5): the alphabet of tracking tokens, which travel in
// a query string where '+', '/' and '=' would need percent-encoding.
//
// Decoding is strict, because a token must have exactly one spelling: padding, whitespace,
// characters outside the alphabet and non-zero unused bits in the last character are all
// refused. A lenient decoder would let "Zh" and "Zg" (both 'f') name the same bytes, and a
// flipped bit in the token text could then go unnoticed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tracking {

// Characters needed for byte_count bytes: ceil(byte_count * 4 / 3).
constexpr size_t base64url_encoded_size(size_t byte_count) {
  return byte_count / 3 * 4 + (byte_count % 3 == 0 ? 0 : byte_count % 3 + 1);
}
// Upper bound of the bytes in a text of char_count characters.
constexpr size_t base64url_decoded_max_size(size_t char_count) { return char_count / 4 * 3 + 2; }

// Appends the encoding of bytes to out.
void base64url_encode(std::string_view bytes, std::string& out);

// Decodes text into out, which must hold base64url_decoded_max_size(text.size()) bytes.
// Returns the number of bytes written, or nullopt if text is not canonical unpadded base64url.
std::optional<size_t> base64url_decode(std::string_view text, std::span<uint8_t> out);

// Appends the decoded bytes to out; false (out unchanged) if text is not canonical.
[[nodiscard]] bool base64url_decode(std::string_view text, std::string& out);

}  // namespace tracking
