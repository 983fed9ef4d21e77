#pragma once
// Which of the cluster's 16384 hash slots a key belongs to: CRC16 (XMODEM) of the key, or
// of its hash tag, modulo 16384, exactly as Redis Cluster computes it, so the client sends
// each command to the primary that owns the key without a redirection.
#include <cstdint>
#include <string_view>

namespace redis_cluster {

inline constexpr uint16_t kSlotCount = 16384;

// CRC16-CCITT as XMODEM uses it (polynomial 0x1021, initial value 0).
uint16_t crc16_xmodem(std::string_view bytes);

// The hash tag rule: when the key holds '{' followed later by '}' with at least one byte
// between them, only the bytes between the first '{' and the first '}' after it are
// hashed, so related keys ("{user1000}.following", "{user1000}.followers") share a slot.
uint16_t key_slot(std::string_view key);

}  // namespace redis_cluster
