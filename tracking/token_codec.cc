#include "tracking/token_codec.h"

#include <openssl/evp.h>
#include <xxhash.h>

#include "tracking/crypto_failure.h"

namespace tracking {
namespace {

EVP_CIPHER_CTX* keyed_gcm_context(const SecretKey& key, bool encrypt) {
  EVP_CIPHER_CTX* context = EVP_CIPHER_CTX_new();
  if (context == nullptr || EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nullptr, key.data(),
                                              nullptr, encrypt ? 1 : 0) != 1) {
    abort_on_crypto_failure("AES-256-GCM set-up");
  }
  return context;  // the IV length stays GCM's default, 12 bytes
}

struct AssociatedData {
  uint8_t bytes[TokenCodec::kKeyIdBytes + 1];
};

AssociatedData associated_data(const uint8_t* key_id) {
  return {{key_id[0], key_id[1], kPayloadVersion}};
}

}  // namespace

TokenCodec::TokenCodec(const KeyRing& keys)
    : signing_key_id_(keys.signing_key().id),
      encrypt_context_(keyed_gcm_context(keys.signing_key().aes_key, true)) {
  decryption_keys_.reserve(keys.entries().size());
  for (const KeyEntry& entry : keys.entries()) {
    decryption_keys_.push_back({entry.id, keyed_gcm_context(entry.aes_key, false)});
  }
}

TokenCodec::~TokenCodec() {
  // EVP_CIPHER_CTX_free wipes the key schedules.
  EVP_CIPHER_CTX_free(encrypt_context_);
  for (const DecryptionKey& key : decryption_keys_) EVP_CIPHER_CTX_free(key.context);
}

absl::Status TokenCodec::encode(const TrackingEvent& event, std::string& out) {
  if (absl::Status encodable = check_encodable(event); !encodable.ok()) return encodable;
  uint8_t* const payload = raw_.data() + kKeyIdBytes + kNonceBytes;
  return seal(write_payload(event, std::span<uint8_t, kMaxPayloadBytes>(payload, kMaxPayloadBytes)), out);
}

absl::Status TokenCodec::encode_any_kind(const TrackingEvent& event, std::string& out) {
  uint8_t* const payload = raw_.data() + kKeyIdBytes + kNonceBytes;
  const size_t size = write_payload_of_any_kind(event, std::span<uint8_t, kMaxPayloadBytes>(payload, kMaxPayloadBytes));
  if (size == 0) return absl::InvalidArgumentError("event breaks a bound of the payload");
  return seal(size, out);
}

absl::Status TokenCodec::seal(size_t payload_size, std::string& out) {
  uint8_t* const key_id = raw_.data();
  uint8_t* const nonce = key_id + kKeyIdBytes;
  uint8_t* const payload = nonce + kNonceBytes;
  key_id[0] = static_cast<uint8_t>(signing_key_id_ >> 8);
  key_id[1] = static_cast<uint8_t>(signing_key_id_);
  // A random 96-bit nonce per token, from a per-codec batch (nonce_pool.h: RAND_bytes per
  // token would cost a system call and locks). NIST SP 800-38D keeps random nonces to 2^32
  // messages per key, where a repeat (which would expose the GHASH key) stays below 2^-32;
  // rotate keys well before a key has issued that many tokens.
  if (!nonces_.take(nonce)) return absl::InternalError("RAND_bytes failed");
  uint8_t* const tag = payload + payload_size;

  const AssociatedData aad = associated_data(key_id);
  int written = 0;
  const bool sealed =
      EVP_EncryptInit_ex(encrypt_context_, nullptr, nullptr, nullptr, nonce) == 1 &&
      EVP_EncryptUpdate(encrypt_context_, nullptr, &written, aad.bytes, sizeof(aad.bytes)) == 1 &&
      // In place: GCM allows the output to be exactly the input.
      EVP_EncryptUpdate(encrypt_context_, payload, &written, payload,
                        static_cast<int>(payload_size)) == 1 &&
      EVP_EncryptFinal_ex(encrypt_context_, payload + written, &written) == 1 &&
      EVP_CIPHER_CTX_ctrl(encrypt_context_, EVP_CTRL_GCM_GET_TAG, kTagBytes, tag) == 1;
  if (!sealed) return absl::InternalError("AES-256-GCM encryption failed");

  const size_t token_size = kOverheadBytes + payload_size;
  base64url_encode(std::string_view(reinterpret_cast<const char*>(raw_.data()), token_size), out);
  return absl::OkStatus();
}

DecodedToken TokenCodec::decode(std::string_view token, int64_t now_s, std::string& storage) {
  storage.clear();
  DecodedToken decoded;  // kMalformed until proven otherwise
  if (token.size() > kMaxTokenChars) return decoded;
  const std::optional<size_t> token_size = base64url_decode(token, raw_);
  // Every token has at least the header, the tag and some payload.
  if (!token_size || *token_size <= kOverheadBytes) return decoded;

  const uint8_t* const key_id = raw_.data();
  const uint16_t id = static_cast<uint16_t>((key_id[0] << 8) | key_id[1]);
  EVP_CIPHER_CTX* context = nullptr;
  for (const DecryptionKey& key : decryption_keys_) {
    if (key.id == id) context = key.context;
  }
  if (context == nullptr) {
    decoded.verdict = TokenVerdict::kUnknownKey;
    return decoded;
  }

  const uint8_t* const nonce = key_id + kKeyIdBytes;
  uint8_t* const payload = raw_.data() + kKeyIdBytes + kNonceBytes;
  const size_t payload_size = *token_size - kOverheadBytes;
  uint8_t* const tag = payload + payload_size;
  const AssociatedData aad = associated_data(key_id);
  int written = 0;
  const bool authentic =
      EVP_DecryptInit_ex(context, nullptr, nullptr, nullptr, nonce) == 1 &&
      EVP_DecryptUpdate(context, nullptr, &written, aad.bytes, sizeof(aad.bytes)) == 1 &&
      EVP_DecryptUpdate(context, payload, &written, payload, static_cast<int>(payload_size)) ==
          1 &&
      EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, kTagBytes, tag) == 1 &&
      // Compares the tag in constant time; fails on any change to the token.
      EVP_DecryptFinal_ex(context, payload + written, &written) == 1;
  if (!authentic) {
    decoded.verdict = TokenVerdict::kUnauthenticated;
    return decoded;
  }

  // The key id and nonce name the token: stable, and distinct for distinct tokens.
  decoded.token_id = XXH3_64bits(raw_.data(), kKeyIdBytes + kNonceBytes);
  // Only authenticated plaintext reaches the caller's storage.
  storage.assign(reinterpret_cast<const char*>(payload), payload_size);
  if (!read_payload(storage, decoded.event)) {
    storage.clear();
    decoded.event = TrackingEvent{};
    return decoded;  // authentic but unreadable: a bug of ours, still a 400 for the client
  }
  decoded.verdict =
      now_s >= decoded.event.expires_at_s ? TokenVerdict::kExpired : TokenVerdict::kValid;
  return decoded;
}

}  // namespace tracking
