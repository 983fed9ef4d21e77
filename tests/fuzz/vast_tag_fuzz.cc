// Fuzz driver for the signed VAST tag check (tracking/vast_tag/vast_tag_codec.h): what
// GET /v1/vast does with its query, with a fixed key ring and clock (fuzz_keys.h). Each
// input is used three ways:
//   1. as the query: check(input, now) refuses it (only the keys' holder signs), naming
//      the parameter at fault, and leaves no payload;
//   2. as a payload (vast_tag_payload.h): when read_vast_tag_payload accepts it, writing it
//      back gives the same bytes; the tag minted for it checks valid with the same payload
//      before its exp and expired at it; the tag with one character changed is refused;
//   3. as parameters around a minted tag ("<input>&<tag>"): a verdict of valid still gives
//      the minted payload (a player may add parameters; none may change what was signed).
// Any break aborts. The payload reader sits behind the HMAC and AES-GCM, so 2 is how the
// fuzzer reaches it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_keys.h"
#include "tracking/tokens/token_codec.h"
#include "tracking/vast_tag/vast_tag_codec.h"
#include "tracking/vast_tag/vast_tag_payload.h"

namespace {

using tracking::VastTagVerdict;

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "vast_tag_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

bool same_payload(const tracking::VastTagPayload& a, const tracking::VastTagPayload& b) {
  return a.ad_id == b.ad_id && a.creative_id == b.creative_id && a.placement_id == b.placement_id &&
         a.request_id == b.request_id && a.issued_at_s == b.issued_at_s && a.language == b.language &&
         a.user_id == b.user_id;
}

bool names_a_parameter(std::string_view field) {
  return field == "d" || field == "exp" || field == "kid" || field == "sig";
}

void check_as_query(tracking::VastTagCodec& codec, std::string_view input) {
  const tracking::VastTagCheck result = codec.check(input, fuzz::kNowS);
  check(result.verdict == VastTagVerdict::kBadSignature, "an unsigned query is refused");
  check(names_a_parameter(result.field), "a refusal names d, exp, kid or sig");
}

void round_trip_payload(tracking::VastTagCodec& codec, std::string_view input) {
  tracking::VastTagPayload payload;
  if (!tracking::read_vast_tag_payload(input, payload)) return;
  std::array<uint8_t, tracking::kMaxVastTagPayloadBytes> written{};
  const size_t size = tracking::write_vast_tag_payload(payload, written);
  check(size == input.size() && std::string_view(reinterpret_cast<const char*>(written.data()), size) == input,
        "a payload read back writes the same bytes");

  const int64_t expires_at_s = fuzz::kNowS + 1 + static_cast<int64_t>(input.size() % 600);
  std::string query;
  check(codec.append_query(payload, expires_at_s, query).ok(), "a payload read back can be minted");

  tracking::VastTagCheck valid = codec.check(query, fuzz::kNowS);
  check(valid.verdict == VastTagVerdict::kValid && valid.field.empty(), "a minted tag checks valid");
  check(valid.expires_at_s == expires_at_s && same_payload(valid.payload, payload),
        "a minted tag gives back its payload and exp");
  const tracking::VastTagCheck late = codec.check(query, expires_at_s);
  check(late.verdict == VastTagVerdict::kExpired && late.field == "exp", "a minted tag expires at its exp");

  std::string around(input);
  around.append("&").append(query);
  valid = codec.check(around, fuzz::kNowS);
  check(valid.verdict != VastTagVerdict::kValid || same_payload(valid.payload, payload),
        "added parameters never change the signed payload");

  // One character changed, at a place and to a character the input picks ('&' and '='
  // included: a tag cut differently is another tag).
  constexpr std::string_view kCharacters = "0123456789abcdefABCDEF-_=&xyz";
  const size_t at = (input.size() * 131 + static_cast<uint8_t>(input.back())) % query.size();
  char replacement = kCharacters[input.size() % kCharacters.size()];
  if (replacement == query[at]) replacement = replacement == '0' ? '1' : '0';
  query[at] = replacement;
  check(codec.check(query, fuzz::kNowS).verdict == VastTagVerdict::kBadSignature, "a changed tag is refused");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tracking::TokenCodec sealer(fuzz::fuzz_ring(), fuzz::fuzz_nonces());
  static tracking::VastTagCodec codec(sealer, fuzz::fuzz_ring());
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_as_query(codec, input);
  round_trip_payload(codec, input);
  if (!input.empty()) {
    // A tag minted for a fixed payload, behind the input's own parameters.
    tracking::VastTagPayload fixed;
    fixed.ad_id = 1001;
    fixed.creative_id = 2002;
    fixed.placement_id = 7;
    fixed.issued_at_s = fuzz::kIssuedAtS;
    fixed.language = "en";
    std::string around(input);
    around.append("&");
    check(codec.append_query(fixed, fuzz::kNowS + 60, around).ok(), "a fixed payload can be minted");
    const tracking::VastTagCheck result = codec.check(around, fuzz::kNowS);
    check(result.verdict != VastTagVerdict::kValid || same_payload(result.payload, fixed),
          "added parameters never change the signed payload");
  }
  return 0;
}
