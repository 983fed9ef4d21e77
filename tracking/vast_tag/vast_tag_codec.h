#pragma once
// Signed VAST tag URLs end to end (docs/video.md, "`GET /v1/vast`"):
//   {base_url}/v1/vast?d=<payload>&exp=<unix seconds>&kid=<key id>&sig=<hex HMAC-SHA256>
// Minting: the payload (vast_tag_payload.h) is sealed with the core's TokenCodec under a
// domain of its own (so it hides the user id and never opens as a tracking token), and the
// query is signed by VastTagSigner. Checking a fetched query: its four parameters, each
// exactly once and canonical, then the signature (constant time), then the expiry, then
// the sealed payload.
//
// One per core, beside the core's TokenCodec, which it borrows.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"
#include "tracking/vast_tag/vast_tag_payload.h"
#include "tracking/vast_tag/vast_tag_signer.h"

namespace tracking {

// The token codec domain of VAST tag payloads (TokenCodec::seal_bytes).
inline constexpr uint8_t kVastTagDomain = TokenCodec::kFirstOtherDomain + 1;

struct VastTagCheck {
  // kBadSignature (403 10052): a parameter missing, repeated or not canonical, an unknown
  // key, a wrong signature, or a payload that does not open. kExpired (410 10053): authentic
  // but past exp. kValid: payload is filled, its strings pointing into the codec's storage
  // until the next call.
  VastTagVerdict verdict = VastTagVerdict::kBadSignature;
  // The parameter the verdict is about, for the error's details: the one missing, repeated
  // or not canonical; "kid" for a key we do not hold, "sig" for a signature that does not
  // match, "d" for a payload that does not open, "exp" when expired; empty when valid.
  std::string_view field;
  VastTagPayload payload;
  int64_t expires_at_s = 0;
};

class VastTagCodec {
 public:
  // The longest d= of a tag this codec mints: a token codec seal of the longest payload.
  static constexpr size_t kMaxSealedChars =
      base64url_encoded_size(TokenCodec::kOverheadBytes + kMaxVastTagPayloadBytes);

  // sealer must outlive the codec; keys are read once (as VastTagSigner). Its scratch is
  // reserved here, so that minting and checking tags allocate nothing from the first call
  // on (a codec built for a new ring starts serving at once: tracking/core_keys/).
  VastTagCodec(TokenCodec& sealer, const KeyRing& keys);

  // Appends "d=...&exp=...&kid=...&sig=..." to out. InvalidArgument (out unchanged) when the
  // payload breaks a bound; Internal if a cipher or MAC fails.
  absl::Status append_query(const VastTagPayload& payload, int64_t expires_at_s, std::string& out);

  VastTagCheck check(std::string_view query, int64_t now_s);

 private:
  TokenCodec& sealer_;
  VastTagSigner signer_;
  std::array<uint8_t, kMaxVastTagPayloadBytes> plaintext_{};
  std::string sealed_;   // append_query's scratch
  std::string opened_;   // check's plaintext, which the checked payload views
};

}  // namespace tracking
