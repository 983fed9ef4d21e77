#pragma once
// HMAC-SHA256 (RFC 2104) under one key, through a reusable OpenSSL context keyed once: the
// algorithm fetch (a lock in OpenSSL 3's method store) and the key's inner and outer pads
// are paid at construction, not per MAC. One instance per key per core.
//
// OpenSSL 3.0 still allocates twice per MAC (it duplicates the keyed digest state); VAST tag
// signing is one MAC per video creative, so this is accepted.
#include <openssl/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace tracking {

class HmacSha256 {
 public:
  static constexpr size_t kMacBytes = 32;
  using Mac = std::array<uint8_t, kMacBytes>;

  // Ends the process if libcrypto cannot set up HMAC-SHA256 (see crypto_failure.h).
  explicit HmacSha256(std::span<const uint8_t> key);
  HmacSha256(HmacSha256&& other) noexcept;
  HmacSha256& operator=(HmacSha256&& other) noexcept;
  HmacSha256(const HmacSha256&) = delete;
  HmacSha256& operator=(const HmacSha256&) = delete;
  ~HmacSha256();

  // False only if OpenSSL fails (out of memory); mac is then unspecified.
  [[nodiscard]] bool compute(std::string_view message, Mac& mac);

 private:
  EVP_MAC* algorithm_ = nullptr;
  EVP_MAC_CTX* context_ = nullptr;
};

}  // namespace tracking
