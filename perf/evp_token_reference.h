#pragma once
// The baseline of the token benchmarks: how tracking tokens were sealed and opened before
// XAES-256-GCM on libgcrypt (docs/tokens.md), kept only to measure against, side by side in
// one run. OpenSSL 3 EVP AES-256-GCM with the key kept in the context, a random 96-bit
// nonce from a batch of RAND_bytes, the same payload and layout otherwise
// (key id | nonce | ciphertext | tag, base64url).
#include <openssl/types.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_payload.h"
#include "tracking/tokens/tracking_event.h"

namespace perf {

class EvpTokenReference {
 public:
  explicit EvpTokenReference(const tracking::KeyEntry& key);
  ~EvpTokenReference();
  EvpTokenReference(const EvpTokenReference&) = delete;
  EvpTokenReference& operator=(const EvpTokenReference&) = delete;

  bool encode(const tracking::TrackingEvent& event, std::string& out);
  // True when authentic; the event's strings view storage.
  bool decode(std::string_view token, std::string& storage, tracking::TrackingEvent& event);

  // The cipher alone, in place: the part of a token the two paths do differently.
  bool seal_payload(uint8_t* payload, size_t size, uint8_t* tag);
  bool open_payload(uint8_t* payload, size_t size, const uint8_t* tag);

 private:
  static constexpr size_t kNonceBytes = 12;
  static constexpr size_t kBatch = 256;
  uint16_t key_id_;
  EVP_CIPHER_CTX* encrypt_;
  EVP_CIPHER_CTX* decrypt_;
  std::array<uint8_t, kNonceBytes * kBatch> nonces_;
  size_t next_nonce_ = nonces_.size();
  std::array<uint8_t, 2 + kNonceBytes + tracking::kMaxPayloadBytes + 16> raw_;
};

}  // namespace perf
