#include "tracking/tokens/nonce_sequence.h"

#include <openssl/rand.h>

#include <cstring>

#include "tracking/tokens/crypto_failure.h"

namespace tracking {
namespace {

// RAND_bytes rather than a per-codec generator: called once per codec (and per 2^64
// tokens), so its locks and reseeding never touch the hot path.
NoncePrefix draw_prefix() {
  NoncePrefix prefix;
  if (RAND_bytes(prefix.data(), static_cast<int>(prefix.size())) != 1) abort_on_crypto_failure("RAND_bytes");
  return prefix;
}

}  // namespace

NonceSequence::NonceSequence(uint64_t first_count) : prefix_(draw_prefix()), next_count_(first_count) {}

NonceSequence::NonceSequence(const NoncePrefix& prefix, uint64_t first_count)
    : prefix_(prefix), next_count_(first_count) {}

NonceSequence::NonceSequence(NonceSequence&& other) noexcept
    : prefix_(other.prefix_), next_count_(other.next_count_), exhausted_(other.exhausted_) {
  other.exhausted_ = true;
}

NonceSequence& NonceSequence::operator=(NonceSequence&& other) noexcept {
  prefix_ = other.prefix_;
  next_count_ = other.next_count_;
  exhausted_ = other.exhausted_;
  other.exhausted_ = true;
  return *this;
}

bool NonceSequence::next(std::span<uint8_t, kXaesNonceBytes> nonce) {
  bool new_prefix = false;
  if (exhausted_) {
    prefix_ = draw_prefix();
    next_count_ = 0;
    exhausted_ = false;
    new_prefix = true;
  }
  const uint64_t count = next_count_;
  if (count == kLastCount) {
    exhausted_ = true;
  } else {
    ++next_count_;
  }
  std::memcpy(nonce.data(), prefix_.data(), prefix_.size());
  uint8_t* const gcm_nonce = nonce.data() + kXaesPrefixBytes;
  std::memset(gcm_nonce, 0, 4);
  for (int i = 0; i < 8; ++i) gcm_nonce[4 + i] = static_cast<uint8_t>(count >> (56 - 8 * i));
  return new_prefix;
}

}  // namespace tracking
