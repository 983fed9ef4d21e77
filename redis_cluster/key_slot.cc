#include "redis_cluster/key_slot.h"

#include <array>

namespace redis_cluster {

namespace {
constexpr std::array<uint16_t, 256> make_crc16_table() {
  std::array<uint16_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint16_t crc = static_cast<uint16_t>(byte << 8);
    for (int bit = 0; bit < 8; ++bit) {
      crc = static_cast<uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    table[byte] = crc;
  }
  return table;
}
constexpr std::array<uint16_t, 256> kCrc16Table = make_crc16_table();
}  // namespace

uint16_t crc16_xmodem(std::string_view bytes) {
  uint16_t crc = 0;
  for (const char c : bytes) {
    crc = static_cast<uint16_t>((crc << 8) ^ kCrc16Table[((crc >> 8) ^ static_cast<uint8_t>(c)) & 0xff]);
  }
  return crc;
}

uint16_t key_slot(std::string_view key) {
  const size_t open = key.find('{');
  if (open != std::string_view::npos) {
    const size_t close = key.find('}', open + 1);
    // "{}" hashes the whole key: an empty tag would put every such key in one slot.
    if (close != std::string_view::npos && close > open + 1) key = key.substr(open + 1, close - open - 1);
  }
  return crc16_xmodem(key) % kSlotCount;
}

}  // namespace redis_cluster
