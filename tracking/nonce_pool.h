#pragma once
// Random GCM nonces, drawn from OpenSSL in batches.
//
// Measured with Debian's OpenSSL 3.0: every RAND_bytes call makes a getpid() system call
// (the DRBG's fork check) and takes library-context rwlocks, one of them for writing, about
// 1.3 us for 12 bytes. One call for kNoncesPerRefill nonces costs about 30 ns per nonce and
// leaves one system call and one round of locks per batch on the hot path.
//
// The nonces are as random as one RAND_bytes call per token, and public anyway (they travel
// in the token), so holding a batch in memory exposes nothing. A pool must not be carried
// across fork(): both processes would hand out the same nonces. decisiond never forks once
// serving; codecs are built on their core after start-up.
#include <array>
#include <cstddef>
#include <cstdint>

namespace tracking {

class NoncePool {
 public:
  static constexpr size_t kNonceBytes = 12;
  static constexpr size_t kNoncesPerRefill = 256;

  // Writes the next unused nonce; false if the generator failed (nothing written).
  [[nodiscard]] bool take(uint8_t* nonce);

 private:
  std::array<uint8_t, kNonceBytes * kNoncesPerRefill> batch_;
  size_t next_ = batch_.size();  // empty: the first take fills it
};

}  // namespace tracking
