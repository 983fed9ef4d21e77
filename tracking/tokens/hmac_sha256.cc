#include "tracking/tokens/hmac_sha256.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <utility>

#include "tracking/tokens/crypto_failure.h"

namespace tracking {

HmacSha256::HmacSha256(std::span<const uint8_t> key)
    : algorithm_(EVP_MAC_fetch(nullptr, "HMAC", nullptr)),
      context_(algorithm_ ? EVP_MAC_CTX_new(algorithm_) : nullptr) {
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_end(),
  };
  // A null key means "keep the previous one" to OpenSSL, so an empty key still gets a
  // non-null pointer.
  static constexpr uint8_t kEmptyKey = 0;
  const uint8_t* key_bytes = key.empty() ? &kEmptyKey : key.data();
  if (context_ == nullptr || EVP_MAC_init(context_, key_bytes, key.size(), params) != 1) {
    abort_on_crypto_failure("HMAC-SHA256 set-up");
  }
}

HmacSha256::HmacSha256(HmacSha256&& other) noexcept
    : algorithm_(std::exchange(other.algorithm_, nullptr)),
      context_(std::exchange(other.context_, nullptr)) {}

HmacSha256& HmacSha256::operator=(HmacSha256&& other) noexcept {
  std::swap(algorithm_, other.algorithm_);
  std::swap(context_, other.context_);
  return *this;
}

HmacSha256::~HmacSha256() {
  EVP_MAC_CTX_free(context_);  // also wipes the keyed state
  EVP_MAC_free(algorithm_);
}

bool HmacSha256::compute(std::string_view message, Mac& mac) {
  size_t mac_size = 0;
  // Re-initialising without a key restarts from the keyed state set up at construction.
  return EVP_MAC_init(context_, nullptr, 0, nullptr) == 1 &&
         EVP_MAC_update(context_, reinterpret_cast<const uint8_t*>(message.data()),
                        message.size()) == 1 &&
         EVP_MAC_final(context_, mac.data(), &mac_size, mac.size()) == 1 &&
         mac_size == mac.size();
}

}  // namespace tracking
