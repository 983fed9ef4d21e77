#pragma once
// Signed VAST tag URLs (docs/video.md, "`GET /v1/vast`"):
//   {base_url}/v1/vast?d=<payload>&exp=<unix seconds>&kid=<key id>&sig=<hex HMAC-SHA256>
// The signature covers the text "d=<payload>&exp=<exp>&kid=<kid>" (the query before &sig=)
// under the HMAC key of that id. The payload is opaque here and signed exactly as it appears
// in the URL, so it must already be URL-safe (base64url, say) and be passed to verify as
// received, without re-encoding.
//
// One signer per core: it owns a keyed HMAC context per key of the ring and a scratch buffer.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tracking/tokens/hmac_sha256.h"
#include "tracking/tokens/key_ring.h"

namespace tracking {

// kBadSignature answers 403 code 10052; kExpired 410 code 10053. The signature is checked
// first: an unauthenticated exp says nothing.
enum class VastTagVerdict : uint8_t { kValid, kBadSignature, kExpired };

class VastTagSigner {
 public:
  static constexpr size_t kSignatureChars = 2 * HmacSha256::kMacBytes;  // lowercase hex

  // Keys a MAC context per key of the ring; keeps no reference to keys (a new ring needs new
  // signers). payload_chars: the longest payload verify is expected to see, reserved now so
  // that verifying one allocates nothing, from the first call on.
  explicit VastTagSigner(const KeyRing& keys, size_t payload_chars = 0);

  // Appends "d=<payload>&exp=<expires_at_s>&kid=<signing key id>&sig=<hex>" to out.
  // Internal (out unchanged) only if OpenSSL fails.
  absl::Status append_signed_query(std::string_view payload, int64_t expires_at_s,
                                   std::string& out);

  // Whether sig_hex signs (payload, expires_at_s, key_id) with the key of key_id, and the tag
  // is not expired at now_s (expired when now_s >= expires_at_s, as tracking tokens). An
  // unknown key id is a bad signature. The comparison takes constant time (CRYPTO_memcmp).
  VastTagVerdict verify(std::string_view payload, int64_t expires_at_s, uint64_t key_id,
                        std::string_view sig_hex, int64_t now_s);

  // Whether the ring this signer was built from holds key_id.
  bool holds_key(uint64_t key_id) const;

 private:
  struct KeyedMac {
    uint16_t id;
    HmacSha256 mac;
  };

  // Appends the signed text "d=...&exp=...&kid=..." to out.
  static void append_signed_text(std::string_view payload, int64_t expires_at_s,
                                 uint16_t key_id, std::string& out);
  // The lowercase hex MAC of text; false if OpenSSL fails.
  static bool signature_of(KeyedMac& key, std::string_view text, char (&hex)[kSignatureChars]);

  std::vector<KeyedMac> macs_;  // in ring order: the first signs
  std::string signed_text_;     // verify's scratch, reused
};

}  // namespace tracking
