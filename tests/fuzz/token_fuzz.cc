// Fuzz driver for tracking tokens (tracking/tokens/token_codec.h, token_payload.h) with a fixed key
// ring and clock (fuzz_keys.h). Each input is used three ways:
//   1. as the t= of GET /v1/tracking: decode(input, now);
//   2. as a payload's plaintext: when read_payload accepts it, writing the event back gives
//      the same bytes (a payload has one spelling), and the token minted for the event
//      decodes to the same event, valid or expired as now says; the token with one
//      character changed never decodes as authentic;
//   3. as the plaintext of another domain (seal_bytes): it opens again under that domain
//      only, never as a tracking token.
// Any break aborts. A forged token cannot reach the payload reader except by breaking
// AES-GCM, so 2 is how the fuzzer reaches it: through the plaintexts that minting seals.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_keys.h"
#include "tracking/tokens/token_codec.h"
#include "tracking/tokens/token_payload.h"
#include "tracking/tokens/tracking_event.h"

namespace {

using tracking::TokenVerdict;

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "token_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

constexpr uint8_t kOtherDomain = tracking::TokenCodec::kFirstOtherDomain + 0x3f;
constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

bool authentic(TokenVerdict verdict) { return verdict == TokenVerdict::kValid || verdict == TokenVerdict::kExpired; }

bool same_event(const tracking::TrackingEvent& a, const tracking::TrackingEvent& b) {
  return a.kind == b.kind && a.custom_name == b.custom_name &&
         (a.kind != tracking::EventKind::kVideo || a.milestone == b.milestone) && a.ad_id == b.ad_id &&
         a.creative_id == b.creative_id && a.placement_id == b.placement_id && a.request_id == b.request_id &&
         a.user_id == b.user_id && a.issued_at_s == b.issued_at_s && a.expires_at_s == b.expires_at_s &&
         a.click_url == b.click_url && a.vendor == b.vendor && a.extra == b.extra;
}

void decode_as_token(tracking::TokenCodec& codec, std::string_view input, std::string& storage) {
  const tracking::DecodedToken decoded = codec.decode(input, fuzz::kNowS, storage);
  // Only the fixed keys' holder mints: random text is never authentic.
  check(!authentic(decoded.verdict) || input.size() > tracking::TokenCodec::kOverheadBytes,
        "a short text is never authentic");
  if (!authentic(decoded.verdict)) check(storage.empty(), "a refused token leaves storage empty");
}

void round_trip_payload(tracking::TokenCodec& codec, std::string_view input, std::string& storage) {
  tracking::TrackingEvent event;
  if (!tracking::read_payload(input, event)) return;
  std::array<uint8_t, tracking::kMaxPayloadBytes> written{};
  const size_t size = tracking::write_payload_of_any_kind(event, written);
  check(size == input.size() && std::string_view(reinterpret_cast<const char*>(written.data()), size) == input,
        "a payload read back writes the same bytes");

  std::string token;
  const absl::Status minted = tracking::is_known_kind(event.kind) ? codec.encode(event, token)
                                                                  : codec.encode_any_kind(event, token);
  check(minted.ok(), "an event read from a payload can be minted");
  check(token.size() <= tracking::TokenCodec::kMaxTokenChars, "a minted token is within kMaxTokenChars");
  const tracking::DecodedToken decoded = codec.decode(token, fuzz::kNowS, storage);
  check(decoded.verdict ==
            (fuzz::kNowS >= event.expires_at_s ? TokenVerdict::kExpired : TokenVerdict::kValid),
        "a minted token decodes, valid or expired as now says");
  check(same_event(decoded.event, event), "a minted token decodes to its event");

  // One character changed, at a place and to a character the input picks.
  const size_t at = (input.size() * 131 + static_cast<uint8_t>(input.back())) % token.size();
  const size_t was = kAlphabet.find(token[at]);
  token[at] = kAlphabet[(was + 1 + input.size() % 63) % kAlphabet.size()];
  check(!authentic(codec.decode(token, fuzz::kNowS, storage).verdict), "a changed token is not authentic");
}

void round_trip_other_domain(tracking::TokenCodec& codec, std::string_view input, std::string& storage) {
  std::string sealed;
  if (!codec.seal_bytes(kOtherDomain, input, sealed).ok()) {
    check(input.empty() || input.size() > tracking::kMaxPayloadBytes, "seal_bytes takes 1..kMaxPayloadBytes");
    return;
  }
  check(codec.open_bytes(kOtherDomain, sealed, storage) == TokenVerdict::kValid && storage == input,
        "sealed bytes open again");
  check(codec.open_bytes(kOtherDomain + 1, sealed, storage) == TokenVerdict::kUnauthenticated,
        "sealed bytes open under their domain only");
  check(codec.decode(sealed, fuzz::kNowS, storage).verdict == TokenVerdict::kUnauthenticated,
        "sealed bytes never open as a tracking token");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tracking::TokenCodec codec(fuzz::fuzz_ring(), fuzz::fuzz_nonces());
  static std::string storage;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  decode_as_token(codec, input, storage);
  round_trip_payload(codec, input, storage);
  round_trip_other_domain(codec, input, storage);
  return 0;
}
