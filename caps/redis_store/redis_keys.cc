#include "caps/redis_store/redis_keys.h"

#include <cstring>

#include "runtime/check.h"

namespace caps::redis_store {

void KeyName::append(std::string_view text) {
  DECISIOND_CHECK_MSG(length_ + text.size() <= text_.size(), "cap store key name longer than its buffer");
  std::memcpy(text_.data() + length_, text.data(), text.size());
  length_ += text.size();
}

void KeyName::append_hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  char hex[16];
  for (int i = 15; i >= 0; --i) {
    hex[i] = kDigits[value & 0xf];
    value >>= 4;
  }
  append({hex, sizeof(hex)});
}

KeyName KeyName::user_hash(uint64_t user_key) {
  KeyName name;
  name.append("dcd:{u:");
  name.append_hex(user_key);
  name.append("}");
  return name;
}

KeyName KeyName::user_impression(uint64_t user_key, uint64_t impression_id) {
  KeyName name = user_hash(user_key);
  name.append(":i:");
  name.append_hex(impression_id);
  return name;
}

KeyName KeyName::lone_impression(uint64_t impression_id) {
  KeyName name;
  name.append("dcd:{i:");
  name.append_hex(impression_id);
  name.append("}");
  return name;
}

std::array<char, 8> le_bytes(uint64_t value) {
  std::array<char, 8> bytes{};
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(value >> (8 * i));
  return bytes;
}

}  // namespace caps::redis_store
