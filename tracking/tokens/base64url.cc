#include "tracking/tokens/base64url.h"

#include <array>

// A small table codec rather than OpenSSL's EVP_EncodeBlock/EVP_DecodeBlock: those speak the
// padded standard alphabet, so both directions would need a translation pass and a copy, and
// EVP_DecodeBlock skips surrounding whitespace and ignores non-zero unused bits, which is
// exactly what a strict decoder must refuse. Sixty lines are easier to make strict than to
// wrap.

namespace tracking {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr uint8_t kInvalid = 0xff;

constexpr std::array<uint8_t, 256> make_decode_table() {
  std::array<uint8_t, 256> table{};
  for (auto& entry : table) entry = kInvalid;
  for (uint8_t i = 0; i < 64; ++i) table[static_cast<uint8_t>(kAlphabet[i])] = i;
  return table;
}
constexpr std::array<uint8_t, 256> kDecode = make_decode_table();

// Two characters per lookup: every token is encoded or decoded on a hot path (several per
// creative), and table lookups per 12 bits rather than per 6 halve the work.
struct CharPair {
  char first, second;
};
constexpr std::array<CharPair, 4096> make_pair_table() {
  std::array<CharPair, 4096> table{};
  for (uint32_t v = 0; v < 4096; ++v) table[v] = {kAlphabet[v >> 6], kAlphabet[v & 63]};
  return table;
}
constexpr std::array<CharPair, 4096> kPairs = make_pair_table();

// Decoding: each of a group's four characters looked up in a table already shifted into
// place, so a group is four loads and three ORs; an invalid character sets bit 24, which
// no valid group has.
constexpr uint32_t kInvalidBit = 1u << 24;
constexpr std::array<uint32_t, 256> make_shifted_table(int shift) {
  std::array<uint32_t, 256> table{};
  for (size_t c = 0; c < 256; ++c) {
    table[c] = kDecode[c] == kInvalid ? kInvalidBit : (uint32_t{kDecode[c]} << shift);
  }
  return table;
}
constexpr std::array<uint32_t, 256> kShift18 = make_shifted_table(18);
constexpr std::array<uint32_t, 256> kShift12 = make_shifted_table(12);
constexpr std::array<uint32_t, 256> kShift6 = make_shifted_table(6);
constexpr std::array<uint32_t, 256> kShift0 = make_shifted_table(0);

}  // namespace

void base64url_encode(std::string_view bytes, std::string& out) {
  const size_t start = out.size();
  out.resize(start + base64url_encoded_size(bytes.size()));
  char* at = out.data() + start;
  const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t group = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    const CharPair high = kPairs[group >> 12];
    const CharPair low = kPairs[group & 4095];
    at[0] = high.first;
    at[1] = high.second;
    at[2] = low.first;
    at[3] = low.second;
    at += 4;
  }
  const size_t rest = bytes.size() - i;
  if (rest == 1) {
    *at++ = kAlphabet[in[i] >> 2];
    *at++ = kAlphabet[(in[i] & 3) << 4];
  } else if (rest == 2) {
    const uint32_t group = (uint32_t{in[i]} << 8) | in[i + 1];
    *at++ = kAlphabet[group >> 10];
    *at++ = kAlphabet[(group >> 4) & 63];
    *at++ = kAlphabet[(group & 15) << 2];
  }
}

std::optional<size_t> base64url_decode(std::string_view text, std::span<uint8_t> out) {
  // One leftover character carries only 6 bits: never a whole byte.
  if (text.size() % 4 == 1) return std::nullopt;
  if (out.size() < base64url_decoded_max_size(text.size())) return std::nullopt;
  const auto* in = reinterpret_cast<const uint8_t*>(text.data());
  uint8_t* at = out.data();
  size_t i = 0;
  uint32_t invalid = 0;
  for (; i + 4 <= text.size(); i += 4) {
    const uint32_t group = kShift18[in[i]] | kShift12[in[i + 1]] | kShift6[in[i + 2]] | kShift0[in[i + 3]];
    invalid |= group;
    at[0] = static_cast<uint8_t>(group >> 16);
    at[1] = static_cast<uint8_t>(group >> 8);
    at[2] = static_cast<uint8_t>(group);
    at += 3;
  }
  // Checked once at the end: what was written for a refused text is never handed out.
  if ((invalid & kInvalidBit) != 0) return std::nullopt;
  const size_t rest = text.size() - i;
  if (rest >= 2) {
    const uint8_t a = kDecode[in[i]], b = kDecode[in[i + 1]];
    const uint8_t c = rest == 3 ? kDecode[in[i + 2]] : 0;
    if (((a | b | c) & 0xc0) != 0) return std::nullopt;
    // The unused low bits of the last character must be zero (RFC 4648 section 3.5), so
    // that every byte string has exactly one encoding.
    if (rest == 2 && (b & 15) != 0) return std::nullopt;
    if (rest == 3 && (c & 3) != 0) return std::nullopt;
    *at++ = static_cast<uint8_t>((a << 2) | (b >> 4));
    if (rest == 3) *at++ = static_cast<uint8_t>((b << 4) | (c >> 2));
  }
  return static_cast<size_t>(at - out.data());
}

bool base64url_decode(std::string_view text, std::string& out) {
  const size_t start = out.size();
  out.resize(start + base64url_decoded_max_size(text.size()));
  auto* at = reinterpret_cast<uint8_t*>(out.data() + start);
  const std::optional<size_t> written =
      base64url_decode(text, std::span<uint8_t>(at, out.size() - start));
  out.resize(start + written.value_or(0));
  return written.has_value();
}

}  // namespace tracking
