#include "tracking/vast_tag/vast_tag_signer.h"

#include <openssl/crypto.h>

#include "absl/strings/str_cat.h"
#include "runtime/absl_view.h"

namespace tracking {

namespace {
// "d=" "&exp=" and "&kid=" around the payload, a 64-bit exp and a 16-bit kid.
constexpr size_t kSignedTextCharsBesidesPayload = 2 + 5 + 20 + 5 + 5;
}  // namespace

VastTagSigner::VastTagSigner(const KeyRing& keys, size_t payload_chars) {
  signed_text_.reserve(payload_chars + kSignedTextCharsBesidesPayload);
  macs_.reserve(keys.entries().size());
  for (const KeyEntry& entry : keys.entries()) {
    macs_.push_back({entry.id, HmacSha256(entry.hmac_key)});
  }
}

void VastTagSigner::append_signed_text(std::string_view payload, int64_t expires_at_s,
                                       uint16_t key_id, std::string& out) {
  absl::StrAppend(&out, "d=", runtime::av(payload), "&exp=", expires_at_s, "&kid=", key_id);
}

bool VastTagSigner::signature_of(KeyedMac& key, std::string_view text,
                                 char (&hex)[kSignatureChars]) {
  static constexpr char kDigits[] = "0123456789abcdef";
  HmacSha256::Mac mac;
  if (!key.mac.compute(text, mac)) return false;
  for (size_t i = 0; i < mac.size(); ++i) {
    hex[2 * i] = kDigits[mac[i] >> 4];
    hex[2 * i + 1] = kDigits[mac[i] & 15];
  }
  return true;
}

absl::Status VastTagSigner::append_signed_query(std::string_view payload, int64_t expires_at_s,
                                                std::string& out) {
  KeyedMac& signing = macs_.front();
  const size_t start = out.size();
  append_signed_text(payload, expires_at_s, signing.id, out);
  char hex[kSignatureChars];
  if (!signature_of(signing, std::string_view(out).substr(start), hex)) {
    out.resize(start);
    return absl::InternalError("HMAC-SHA256 failed");
  }
  out += "&sig=";
  out.append(hex, sizeof(hex));
  return absl::OkStatus();
}

bool VastTagSigner::holds_key(uint64_t key_id) const {
  for (const KeyedMac& key : macs_) {
    if (key.id == key_id) return true;
  }
  return false;
}

VastTagVerdict VastTagSigner::verify(std::string_view payload, int64_t expires_at_s,
                                     uint64_t key_id, std::string_view sig_hex, int64_t now_s) {
  KeyedMac* key = nullptr;
  for (KeyedMac& candidate : macs_) {
    if (candidate.id == key_id) key = &candidate;
  }
  // The length is public (every signature has 64 characters); only the content is compared
  // in constant time.
  if (key == nullptr || sig_hex.size() != kSignatureChars) return VastTagVerdict::kBadSignature;
  signed_text_.clear();
  append_signed_text(payload, expires_at_s, key->id, signed_text_);
  char expected[kSignatureChars];
  if (!signature_of(*key, signed_text_, expected) ||  // fails closed if OpenSSL fails
      CRYPTO_memcmp(expected, sig_hex.data(), kSignatureChars) != 0) {
    return VastTagVerdict::kBadSignature;
  }
  return now_s >= expires_at_s ? VastTagVerdict::kExpired : VastTagVerdict::kValid;
}

}  // namespace tracking
