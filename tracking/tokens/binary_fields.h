#pragma once
// The building blocks of the compact binary payloads sealed into tracking tokens
// (token_payload.h) and VAST tag payloads (vast_tag/vast_tag_payload.h): minimal LEB128
// varints and raw bytes, written through a pointer the caller sized, read through a
// bounds-checked cursor that fails rather than run past the end.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tracking {

inline constexpr size_t kMaxVarintBytes = 10;

inline uint8_t* put_varint(uint8_t* at, uint64_t value) {
  while (value >= 0x80) {
    *at++ = static_cast<uint8_t>(value) | 0x80;
    value >>= 7;
  }
  *at++ = static_cast<uint8_t>(value);
  return at;
}

inline uint8_t* put_bytes(uint8_t* at, std::string_view bytes) {
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  return at + bytes.size();
}

class BinaryReader {
 public:
  explicit BinaryReader(std::string_view payload) : rest_(payload) {}

  bool byte(uint8_t& value) {
    if (rest_.empty()) return false;
    value = static_cast<uint8_t>(rest_.front());
    rest_.remove_prefix(1);
    return true;
  }

  // Minimal LEB128 of at most 64 bits: one spelling per value.
  bool varint(uint64_t& value) {
    value = 0;
    for (size_t i = 0; i < kMaxVarintBytes; ++i) {
      uint8_t b;
      if (!byte(b)) return false;
      if (i == kMaxVarintBytes - 1 && b > 1) return false;  // beyond 64 bits
      value |= uint64_t{b & 0x7fu} << (7 * i);
      if ((b & 0x80) == 0) return b != 0 || i == 0;  // a zero last byte is a padded spelling
    }
    return false;
  }

  bool bytes(size_t count, std::string_view& value) {
    if (count > rest_.size()) return false;
    value = rest_.substr(0, count);
    rest_.remove_prefix(count);
    return true;
  }

  // A varint length of at most max_length, then that many bytes.
  bool sized_bytes(size_t max_length, std::string_view& value) {
    uint64_t length;
    return varint(length) && length <= max_length && bytes(length, value);
  }

  bool at_end() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

}  // namespace tracking
