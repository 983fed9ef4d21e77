#pragma once
// XAES-256-GCM (C2SP, https://c2sp.org/XAES-256-GCM): AES-256-GCM with a 192-bit nonce. The
// nonce's first 12 bytes derive a subkey from the key (two AES block encryptions, NIST SP
// 800-108r1 counter mode with CMAC); its last 12 bytes are the GCM nonce under that subkey.
// docs/tokens.md says why tokens use it and how their nonces are made.
//
// Built on libgcrypt (Debian's libgcrypt20): its AES-NI and PCLMUL GCM is keyed once per
// handle, and a message costs four plain calls (set IV, AAD, en/decrypt, tag), with none of
// OpenSSL 3's per-call parameter dispatch. Handles are not thread-safe: one set per core.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

struct gcry_cipher_handle;

namespace tracking {

inline constexpr size_t kXaesKeyBytes = 32;
inline constexpr size_t kXaesNonceBytes = 24;
inline constexpr size_t kXaesPrefixBytes = 12;  // what derives the subkey
inline constexpr size_t kGcmNonceBytes = 12;
inline constexpr size_t kGcmTagBytes = 16;

// Initialises libgcrypt once per process (thread-safe); false if it cannot be.
bool ensure_libgcrypt();

// Zeroes key material in a way the compiler may not drop as a dead store.
void wipe_key_bytes(std::span<uint8_t> bytes);

// A key's derivation side: AES-256 in ECB mode keyed once, and its CMAC subkey K1.
class XaesKey {
 public:
  explicit XaesKey(std::span<const uint8_t, kXaesKeyBytes> key);
  XaesKey(const XaesKey&) = delete;
  XaesKey& operator=(const XaesKey&) = delete;
  ~XaesKey();

  // The subkey of nonce prefix: AES_K(M1 ^ K1) || AES_K(M2 ^ K1).
  void derive(std::span<const uint8_t, kXaesPrefixBytes> prefix, std::span<uint8_t, kXaesKeyBytes> subkey) const;

 private:
  gcry_cipher_handle* ecb_ = nullptr;
  std::array<uint8_t, 16> k1_{};
};

// AES-256-GCM under one (sub)key, re-keyable.
class GcmKey {
 public:
  GcmKey();
  GcmKey(const GcmKey&) = delete;
  GcmKey& operator=(const GcmKey&) = delete;
  ~GcmKey();

  void set_key(std::span<const uint8_t, kXaesKeyBytes> key);
  // In place; writes the tag. False if libgcrypt fails.
  bool seal(std::span<const uint8_t, kGcmNonceBytes> nonce, std::span<const uint8_t> aad, std::span<uint8_t> data,
            std::span<uint8_t, kGcmTagBytes> tag);
  // In place; false unless the tag matches (compared in constant time by libgcrypt).
  bool open(std::span<const uint8_t, kGcmNonceBytes> nonce, std::span<const uint8_t> aad, std::span<uint8_t> data,
            std::span<const uint8_t, kGcmTagBytes> tag);

 private:
  gcry_cipher_handle* gcm_ = nullptr;
};

}  // namespace tracking
