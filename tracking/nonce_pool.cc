#include "tracking/nonce_pool.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstring>

namespace tracking {

bool NoncePool::take(uint8_t* nonce) {
  if (next_ == batch_.size()) {
    if (RAND_bytes(batch_.data(), static_cast<int>(batch_.size())) != 1) return false;
    next_ = 0;
  }
  std::memcpy(nonce, batch_.data() + next_, kNonceBytes);
  // A nonce is used once: wiping it makes a bug that re-reads the pool visible as zeros
  // rather than as a silently repeated nonce.
  std::memset(batch_.data() + next_, 0, kNonceBytes);
  next_ += kNonceBytes;
  return true;
}

}  // namespace tracking
