#pragma once
// Tracking tokens (DESIGN section 5): the opaque t= of {base_url}/v1/tracking?t=<token>.
//
//   token = base64url( key id (2 bytes, big-endian) | nonce (12 random bytes)
//                      | AES-256-GCM ciphertext of the payload (token_payload.h) | tag (16) )
//
// The layout is DESIGN's, with no byte in clear beyond the key id. The additional
// authenticated data is the key id and the payload version: the key id cannot be swapped,
// and a token of another payload version fails the tag instead of being misread. The
// payload also starts with its version byte. (A future version 2 decoder would try each
// version it knows as AAD, one GHASH each, during the overlap.)
//
// One codec per core: it owns OpenSSL contexts, a nonce batch and scratch buffers, and
// takes no locks. encode allocates nothing once out has grown to its working size (decode
// likewise once storage has), and makes one RAND_bytes call (a system call and locks)
// per NoncePool::kNoncesPerRefill tokens.
#include <openssl/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tracking/base64url.h"
#include "tracking/key_ring.h"
#include "tracking/nonce_pool.h"
#include "tracking/token_payload.h"
#include "tracking/tracking_event.h"

namespace tracking {

// What a token turned out to be. Every verdict but kValid and kExpired answers 400 code
// 10050; kExpired answers 410 code 10051. The finer split is for metrics.
enum class TokenVerdict : uint8_t {
  kValid,
  kMalformed,        // not canonical base64url, too short or too long, or a bad payload
  kUnknownKey,       // a key id the ring does not hold (retired, or never ours)
  kUnauthenticated,  // the GCM tag does not match: tampered with or forged
  kExpired,          // authentic, but now_s >= expires_at_s
};

constexpr std::string_view verdict_name(TokenVerdict verdict) {
  switch (verdict) {
    case TokenVerdict::kValid: return "valid";
    case TokenVerdict::kMalformed: return "malformed";
    case TokenVerdict::kUnknownKey: return "unknown_key";
    case TokenVerdict::kUnauthenticated: return "unauthenticated";
    case TokenVerdict::kExpired: return "expired";
  }
  return {};
}

struct DecodedToken {
  TokenVerdict verdict = TokenVerdict::kMalformed;
  // Filled when the token is authentic (kValid, and kExpired so that late calls can still
  // be logged); its strings point into the storage passed to decode.
  TrackingEvent event;
  // Filled with event: the token's identity for exactly-once impressions, a 64-bit hash of
  // its key id and nonce (which never repeat under one key: docs/tokens.md).
  uint64_t token_id = 0;

  bool ok() const { return verdict == TokenVerdict::kValid; }
};

class TokenCodec {
 public:
  static constexpr size_t kKeyIdBytes = 2;
  static constexpr size_t kNonceBytes = NoncePool::kNonceBytes;
  static constexpr size_t kTagBytes = 16;
  static constexpr size_t kOverheadBytes = kKeyIdBytes + kNonceBytes + kTagBytes;
  static constexpr size_t kMaxTokenBytes = kOverheadBytes + kMaxPayloadBytes;
  // Longer token text is refused before any decoding work.
  static constexpr size_t kMaxTokenChars = base64url_encoded_size(kMaxTokenBytes);

  // Keys every AES context once (the key schedule is not redone per token): the signing key
  // for encode, every key of the ring for decode. The codec keeps no reference to keys; a
  // new ring needs new codecs. Ends the process if libcrypto cannot set up AES-256-GCM
  // (crypto_failure.h).
  explicit TokenCodec(const KeyRing& keys);
  TokenCodec(const TokenCodec&) = delete;
  TokenCodec& operator=(const TokenCodec&) = delete;
  ~TokenCodec();

  // Appends the token of event to out. InvalidArgument (out unchanged) when the event breaks
  // a bound or carries fields of another kind (token_payload.h: check_encodable); Internal if
  // OpenSSL fails.
  absl::Status encode(const TrackingEvent& event, std::string& out);

  // As encode, for an event of any kind, known to this build or not (its kind-specific
  // bytes in event.extra): the tokens a newer build mints, for tests and tools.
  absl::Status encode_any_kind(const TrackingEvent& event, std::string& out);

  // Authenticates and reads token; expiry is judged against now_s only (the codec never
  // reads a clock). The plaintext is copied into storage, which the decoded strings view:
  // keep storage unchanged while using them. On failure storage is left empty.
  DecodedToken decode(std::string_view token, int64_t now_s, std::string& storage);

 private:
  struct DecryptionKey {
    uint16_t id;
    EVP_CIPHER_CTX* context;
  };

  // Seals the payload already written after the header in raw_, and appends the token.
  absl::Status seal(size_t payload_size, std::string& out);

  uint16_t signing_key_id_;
  EVP_CIPHER_CTX* encrypt_context_;
  std::vector<DecryptionKey> decryption_keys_;  // in ring order
  NoncePool nonces_;
  // The raw token: encode builds it here, decode decodes and decrypts it in place.
  std::array<uint8_t, base64url_decoded_max_size(kMaxTokenChars)> raw_;
};

}  // namespace tracking
