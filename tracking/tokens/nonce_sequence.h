#pragma once
// The 192-bit XAES-256-GCM nonces of one token codec (docs/tokens.md): a 96-bit instance
// prefix drawn from the OS once, then a counter in the 96-bit GCM nonce.
//
//   nonce = prefix (12 random bytes) | 0 0 0 0 | count (8 bytes, big-endian)
//
// The prefix derives the codec's subkey, so it changes only when the counter is used up:
// 2^64 tokens, which a core sealing a hundred million a second would reach in six thousand
// years. The rule is kept anyway, because a repeated (subkey, GCM nonce) is the one thing
// GCM cannot survive: the sequence then draws a fresh prefix and the caller re-derives.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "tracking/tokens/xaes_gcm.h"

namespace tracking {

using NoncePrefix = std::array<uint8_t, kXaesPrefixBytes>;

class NonceSequence {
 public:
  // The last count the sequence hands out under one prefix.
  static constexpr uint64_t kLastCount = std::numeric_limits<uint64_t>::max();

  // Draws the prefix from the OS (ends the process if it cannot: crypto_failure.h).
  NonceSequence() : NonceSequence(0) {}
  // Starts counting at first_count: tests use it to reach the end of a prefix.
  explicit NonceSequence(uint64_t first_count);
  // A given prefix instead of a drawn one, so that a fuzz driver mints the same tokens on
  // every run. Never in the server: two sequences of one prefix under one key repeat nonces.
  NonceSequence(const NoncePrefix& prefix, uint64_t first_count);

  // Never copied: two copies would hand out the same nonces. A moved-from sequence draws a
  // new prefix if it is used again, for the same reason.
  NonceSequence(const NonceSequence&) = delete;
  NonceSequence& operator=(const NonceSequence&) = delete;
  NonceSequence(NonceSequence&& other) noexcept;
  NonceSequence& operator=(NonceSequence&& other) noexcept;

  const NoncePrefix& prefix() const { return prefix_; }

  // Writes the next nonce. True when it had to draw a new prefix first: the caller's
  // subkey belongs to the old prefix and must be derived again before sealing.
  [[nodiscard]] bool next(std::span<uint8_t, kXaesNonceBytes> nonce);

 private:
  NoncePrefix prefix_;
  uint64_t next_count_;
  bool exhausted_ = false;  // kLastCount was handed out
};

}  // namespace tracking
