#include "tracking/vast_tag/vast_tag_codec.h"

#include <charconv>
#include <limits>
#include <optional>

namespace tracking {
namespace {

struct TagQuery {
  std::optional<std::string_view> d, exp, kid, sig;
  bool repeated = false;
  std::string_view repeated_name;  // the first parameter given twice
};

// Parameters other than the four are ignored (a player may add a cache-buster); any of the
// four given twice makes the query unusable, since which one was signed would be a guess.
TagQuery parse_tag_query(std::string_view query) {
  TagQuery parsed;
  while (!query.empty()) {
    const size_t end = query.find('&');
    const std::string_view pair = query.substr(0, end);
    query = end == std::string_view::npos ? std::string_view{} : query.substr(end + 1);
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view name = pair.substr(0, equals);
    const std::string_view value = pair.substr(equals + 1);
    std::optional<std::string_view>* slot = name == "d"     ? &parsed.d
                                            : name == "exp" ? &parsed.exp
                                            : name == "kid" ? &parsed.kid
                                            : name == "sig" ? &parsed.sig
                                                            : nullptr;
    if (slot == nullptr) continue;
    if (slot->has_value() && !parsed.repeated) {
      parsed.repeated = true;
      parsed.repeated_name = name;
    }
    *slot = value;
  }
  return parsed;
}

// A decimal without sign or leading zero, as the minting side writes it.
template <typename Int>
std::optional<Int> canonical_decimal(std::string_view text, Int max) {
  if (text.empty() || text[0] < '0' || text[0] > '9' || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  Int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > max) return std::nullopt;
  return value;
}

}  // namespace

VastTagCodec::VastTagCodec(TokenCodec& sealer, const KeyRing& keys) : sealer_(sealer), signer_(keys, kMaxSealedChars) {
  sealed_.reserve(kMaxSealedChars);
  opened_.reserve(kMaxPayloadBytes);
}

absl::Status VastTagCodec::append_query(const VastTagPayload& payload, int64_t expires_at_s, std::string& out) {
  const size_t size =
      write_vast_tag_payload(payload, std::span<uint8_t, kMaxVastTagPayloadBytes>(plaintext_));
  if (size == 0) return absl::InvalidArgumentError("VAST tag payload breaks a bound");
  sealed_.clear();
  const std::string_view plaintext(reinterpret_cast<const char*>(plaintext_.data()), size);
  if (absl::Status sealed = sealer_.seal_bytes(kVastTagDomain, plaintext, sealed_); !sealed.ok()) return sealed;
  return signer_.append_signed_query(sealed_, expires_at_s, out);
}

VastTagCheck VastTagCodec::check(std::string_view query, int64_t now_s) {
  VastTagCheck result;
  const TagQuery parsed = parse_tag_query(query);
  if (parsed.repeated) {
    result.field = parsed.repeated_name;
    return result;
  }
  if (!parsed.d || parsed.d->empty() || !parsed.exp || !parsed.kid || !parsed.sig) {
    result.field = !parsed.d || parsed.d->empty() ? "d" : !parsed.exp ? "exp" : !parsed.kid ? "kid" : "sig";
    return result;
  }
  const std::optional<int64_t> exp = canonical_decimal<int64_t>(*parsed.exp, std::numeric_limits<int64_t>::max());
  const std::optional<uint32_t> kid = canonical_decimal<uint32_t>(*parsed.kid, 0xffff);
  if (!exp || !kid) {
    result.field = !exp ? "exp" : "kid";
    return result;
  }
  result.verdict = signer_.verify(*parsed.d, *exp, *kid, *parsed.sig, now_s);
  if (result.verdict == VastTagVerdict::kExpired) result.field = "exp";
  if (result.verdict == VastTagVerdict::kBadSignature) result.field = signer_.holds_key(*kid) ? "sig" : "kid";
  if (result.verdict != VastTagVerdict::kValid) return result;
  // Signed by us: the payload opens unless this build cannot read what another minted.
  if (sealer_.open_bytes(kVastTagDomain, *parsed.d, opened_) != TokenVerdict::kValid ||
      !read_vast_tag_payload(opened_, result.payload)) {
    result.verdict = VastTagVerdict::kBadSignature;
    result.field = "d";
    return result;
  }
  result.expires_at_s = *exp;
  return result;
}

}  // namespace tracking
