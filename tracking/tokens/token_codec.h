#pragma once
// Tracking tokens (docs/tokens.md): the opaque t= of {base_url}/v1/tracking?t=<token>.
//
//   token = base64url( key id (2 bytes, big-endian) | nonce (24 bytes)
//                      | XAES-256-GCM ciphertext of the payload (token_payload.h) | tag (16) )
//
// The layout is docs/tokens.md's, with no byte in clear beyond the key id. The additional
// authenticated data is the key id and the payload version: the key id cannot be swapped,
// and a token of another payload version fails the tag instead of being misread. The
// payload also starts with its version byte.
//
// Nonces (docs/tokens.md): XAES-256-GCM's 192-bit nonce is this codec's
// instance prefix (12 random bytes drawn when the codec is built, which derive its subkey
// once) followed by a 96-bit counter. Two tokens can share a (subkey, GCM nonce) only if two
// codecs ever draw the same 96-bit prefix under one key.
//
// One codec per core: it owns libgcrypt handles and scratch buffers, and takes no locks.
// Opening a token of another codec (another core, node or run) needs that codec's subkey:
// kept in a small cache of keyed handles, derived on a miss (two AES blocks and a GCM
// re-key). encode allocates nothing once out has grown to its working size (decode likewise
// once storage has), and makes no system call.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tracking/tokens/base64url.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/nonce_sequence.h"
#include "tracking/tokens/token_payload.h"
#include "tracking/tokens/tracking_event.h"
#include "tracking/tokens/xaes_gcm.h"

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
  static constexpr size_t kNonceBytes = kXaesNonceBytes;
  static constexpr size_t kTagBytes = 16;
  static constexpr size_t kOverheadBytes = kKeyIdBytes + kNonceBytes + kTagBytes;
  static constexpr size_t kMaxTokenBytes = kOverheadBytes + kMaxPayloadBytes;
  // Longer token text is refused before any decoding work.
  static constexpr size_t kMaxTokenChars = base64url_encoded_size(kMaxTokenBytes);

  // Keys what it can once: the signing key's subkey for the prefix of nonces (drawn from the
  // OS; tests pass a sequence near its end), and every key of the ring for derivation. The
  // codec keeps no reference to keys; a new ring needs new codecs. Ends the process if
  // libgcrypt cannot set up AES-256 (crypto_failure.h).
  explicit TokenCodec(const KeyRing& keys, NonceSequence nonces = NonceSequence());
  TokenCodec(const TokenCodec&) = delete;
  TokenCodec& operator=(const TokenCodec&) = delete;
  ~TokenCodec();

  // Appends the token of event to out. InvalidArgument (out unchanged) when the event breaks
  // a bound or carries fields of another kind (token_payload.h: check_encodable); Internal if
  // libgcrypt fails.
  absl::Status encode(const TrackingEvent& event, std::string& out);

  // As encode, for an event of any kind, known to this build or not (its kind-specific
  // bytes in event.extra): the tokens a newer build mints, for tests and tools.
  absl::Status encode_any_kind(const TrackingEvent& event, std::string& out);

  // Authenticates and reads token; expiry is judged against now_s only (the codec never
  // reads a clock). The plaintext is copied into storage, which the decoded strings view:
  // keep storage unchanged while using them. On failure storage is left empty.
  DecodedToken decode(std::string_view token, int64_t now_s, std::string& storage);

  // Sealed payloads that are not tracking events (a VAST tag's d): the same construction,
  // keys and nonces, with `domain` in the associated data where a token has its payload
  // version, so a payload of one domain never opens as another's or as a token. Domains
  // start at kFirstOtherDomain; payload versions stay below it.
  static constexpr uint8_t kFirstOtherDomain = 0x80;
  // Appends base64url(key id | nonce | ciphertext | tag) to out; InvalidArgument (out
  // unchanged) for a reserved domain or a plaintext of 0 or more than kMaxPayloadBytes.
  absl::Status seal_bytes(uint8_t domain, std::string_view plaintext, std::string& out);
  // kValid with the plaintext in storage, or why not (storage then empty).
  TokenVerdict open_bytes(uint8_t domain, std::string_view text, std::string& storage);

 private:
  // Subkeys of the prefixes seen when opening tokens, direct-mapped by (key id, prefix).
  static constexpr size_t kOpenCacheEntries = 256;
  struct RingKey {
    uint16_t id;
    std::unique_ptr<XaesKey> derivation;
  };
  struct OpenCacheEntry {
    bool valid = false;
    uint16_t key_id = 0;
    std::array<uint8_t, kXaesPrefixBytes> prefix{};
    GcmKey gcm;
  };

  // Seals the payload already written after the header in raw_, and appends the token.
  absl::Status seal(uint8_t domain, size_t payload_size, std::string& out);
  // Authenticates text sealed under domain; plaintext then views raw_.
  TokenVerdict open(uint8_t domain, std::string_view text, std::string_view& plaintext);
  // Keys seal_key_ with the signing key's subkey for the current prefix of nonces_.
  void key_sealer();
  // The keyed GCM handle that opens tokens of this key and prefix.
  GcmKey& open_key(const RingKey& key, std::span<const uint8_t, kXaesPrefixBytes> prefix);

  uint16_t signing_key_id_;
  NonceSequence nonces_;            // this codec's instance prefix and counter
  GcmKey seal_key_;                 // the signing key's subkey for the prefix of nonces_
  std::vector<RingKey> ring_keys_;  // in ring order: the first signs
  std::unique_ptr<OpenCacheEntry[]> open_cache_;
  // The raw token: encode builds it here, decode decodes and decrypts it in place.
  std::array<uint8_t, base64url_decoded_max_size(kMaxTokenChars)> raw_;
};

}  // namespace tracking
