#include "perf/evp_token_reference.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstring>

#include "tracking/tokens/base64url.h"

namespace perf {

namespace {
EVP_CIPHER_CTX* keyed(const tracking::SecretKey& key, bool encrypt) {
  EVP_CIPHER_CTX* context = EVP_CIPHER_CTX_new();
  EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nullptr, key.data(), nullptr, encrypt ? 1 : 0);
  return context;
}
}  // namespace

EvpTokenReference::EvpTokenReference(const tracking::KeyEntry& key)
    : key_id_(key.id), encrypt_(keyed(key.aes_key, true)), decrypt_(keyed(key.aes_key, false)) {}

EvpTokenReference::~EvpTokenReference() {
  EVP_CIPHER_CTX_free(encrypt_);
  EVP_CIPHER_CTX_free(decrypt_);
}

bool EvpTokenReference::encode(const tracking::TrackingEvent& event, std::string& out) {
  if (!tracking::check_encodable(event).ok()) return false;  // as the EVP codec did
  uint8_t* const key_id = raw_.data();
  uint8_t* const nonce = key_id + 2;
  uint8_t* const payload = nonce + kNonceBytes;
  key_id[0] = static_cast<uint8_t>(key_id_ >> 8);
  key_id[1] = static_cast<uint8_t>(key_id_);
  if (next_nonce_ == nonces_.size()) {
    if (RAND_bytes(nonces_.data(), static_cast<int>(nonces_.size())) != 1) return false;
    next_nonce_ = 0;
  }
  std::memcpy(nonce, nonces_.data() + next_nonce_, kNonceBytes);
  next_nonce_ += kNonceBytes;
  const size_t size =
      tracking::write_payload(event, std::span<uint8_t, tracking::kMaxPayloadBytes>(payload, tracking::kMaxPayloadBytes));
  const uint8_t aad[3] = {key_id[0], key_id[1], tracking::kPayloadVersion};
  int written = 0;
  const bool sealed = EVP_EncryptInit_ex(encrypt_, nullptr, nullptr, nullptr, nonce) == 1 &&
                      EVP_EncryptUpdate(encrypt_, nullptr, &written, aad, sizeof(aad)) == 1 &&
                      EVP_EncryptUpdate(encrypt_, payload, &written, payload, static_cast<int>(size)) == 1 &&
                      EVP_EncryptFinal_ex(encrypt_, payload + written, &written) == 1 &&
                      EVP_CIPHER_CTX_ctrl(encrypt_, EVP_CTRL_GCM_GET_TAG, 16, payload + size) == 1;
  if (!sealed) return false;
  tracking::base64url_encode(std::string_view(reinterpret_cast<const char*>(raw_.data()), 2 + kNonceBytes + size + 16), out);
  return true;
}

bool EvpTokenReference::decode(std::string_view token, std::string& storage, tracking::TrackingEvent& event) {
  const std::optional<size_t> size = tracking::base64url_decode(token, raw_);
  if (!size || *size <= 2 + kNonceBytes + 16) return false;
  uint8_t* const payload = raw_.data() + 2 + kNonceBytes;
  const size_t payload_size = *size - 2 - kNonceBytes - 16;
  const uint8_t aad[3] = {raw_[0], raw_[1], tracking::kPayloadVersion};
  int written = 0;
  const bool authentic =
      EVP_DecryptInit_ex(decrypt_, nullptr, nullptr, nullptr, raw_.data() + 2) == 1 &&
      EVP_DecryptUpdate(decrypt_, nullptr, &written, aad, sizeof(aad)) == 1 &&
      EVP_DecryptUpdate(decrypt_, payload, &written, payload, static_cast<int>(payload_size)) == 1 &&
      EVP_CIPHER_CTX_ctrl(decrypt_, EVP_CTRL_GCM_SET_TAG, 16, payload + payload_size) == 1 &&
      EVP_DecryptFinal_ex(decrypt_, payload + written, &written) == 1;
  if (!authentic) return false;
  storage.assign(reinterpret_cast<const char*>(payload), payload_size);
  return tracking::read_payload(storage, event);
}

bool EvpTokenReference::seal_payload(uint8_t* payload, size_t size, uint8_t* tag) {
  const uint8_t aad[3] = {0, 1, tracking::kPayloadVersion};
  const uint8_t nonce[kNonceBytes] = {};
  int written = 0;
  return EVP_EncryptInit_ex(encrypt_, nullptr, nullptr, nullptr, nonce) == 1 &&
         EVP_EncryptUpdate(encrypt_, nullptr, &written, aad, sizeof(aad)) == 1 &&
         EVP_EncryptUpdate(encrypt_, payload, &written, payload, static_cast<int>(size)) == 1 &&
         EVP_EncryptFinal_ex(encrypt_, payload + written, &written) == 1 &&
         EVP_CIPHER_CTX_ctrl(encrypt_, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
}

bool EvpTokenReference::open_payload(uint8_t* payload, size_t size, const uint8_t* tag) {
  const uint8_t aad[3] = {0, 1, tracking::kPayloadVersion};
  const uint8_t nonce[kNonceBytes] = {};
  int written = 0;
  return EVP_DecryptInit_ex(decrypt_, nullptr, nullptr, nullptr, nonce) == 1 &&
         EVP_DecryptUpdate(decrypt_, nullptr, &written, aad, sizeof(aad)) == 1 &&
         EVP_DecryptUpdate(decrypt_, payload, &written, payload, static_cast<int>(size)) == 1 &&
         EVP_CIPHER_CTX_ctrl(decrypt_, EVP_CTRL_GCM_SET_TAG, 16, const_cast<uint8_t*>(tag)) == 1 &&
         EVP_DecryptFinal_ex(decrypt_, payload + written, &written) == 1;
}

}  // namespace perf
