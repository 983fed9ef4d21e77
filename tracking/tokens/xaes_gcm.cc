#include "tracking/tokens/xaes_gcm.h"

#include <gcrypt.h>

#include <string.h>  // explicit_bzero

#include <cstring>
#include <mutex>

#include "tracking/tokens/crypto_failure.h"

namespace tracking {

bool ensure_libgcrypt() {
  static std::once_flag once;
  static bool ready = false;
  std::call_once(once, [] {
    if (gcry_check_version(GCRYPT_VERSION) == nullptr) return;
    // Keys live in ordinary memory, wiped on destruction, like the rest of decisiond's
    // secrets; libgcrypt's locked "secure memory" pool would only add a size limit.
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    ready = true;
  });
  return ready;
}

void wipe_key_bytes(std::span<uint8_t> bytes) { explicit_bzero(bytes.data(), bytes.size()); }

namespace {
gcry_cipher_hd_t open_handle(int mode) {
  if (!ensure_libgcrypt()) abort_on_crypto_failure("libgcrypt initialisation");
  gcry_cipher_hd_t handle = nullptr;
  if (gcry_cipher_open(&handle, GCRY_CIPHER_AES256, mode, 0) != 0) abort_on_crypto_failure("libgcrypt AES-256 handle");
  return handle;
}
}  // namespace

XaesKey::XaesKey(std::span<const uint8_t, kXaesKeyBytes> key) : ecb_(open_handle(GCRY_CIPHER_MODE_ECB)) {
  if (gcry_cipher_setkey(ecb_, key.data(), key.size()) != 0) abort_on_crypto_failure("XAES key");
  // L = AES_K(0^128); K1 = L doubled in GF(2^128) (shift left, reduce by 0x87).
  std::array<uint8_t, 16> l{};
  gcry_cipher_encrypt(ecb_, l.data(), l.size(), nullptr, 0);
  const uint8_t carry = l[0] >> 7;
  for (size_t i = 0; i < 15; ++i) k1_[i] = static_cast<uint8_t>((l[i] << 1) | (l[i + 1] >> 7));
  k1_[15] = static_cast<uint8_t>((l[15] << 1) ^ (carry ? 0x87 : 0));
  wipe_key_bytes(l);
}

XaesKey::~XaesKey() {
  gcry_cipher_close(ecb_);  // libgcrypt wipes the key schedule
  wipe_key_bytes(k1_);
}

void XaesKey::derive(std::span<const uint8_t, kXaesPrefixBytes> prefix, std::span<uint8_t, kXaesKeyBytes> subkey) const {
  uint8_t blocks[32];
  for (int half = 0; half < 2; ++half) {
    uint8_t* m = blocks + 16 * half;
    m[0] = 0x00;
    m[1] = static_cast<uint8_t>(half + 1);
    m[2] = 'X';
    m[3] = 0x00;
    std::memcpy(m + 4, prefix.data(), prefix.size());
    for (size_t i = 0; i < 16; ++i) m[i] ^= k1_[i];
  }
  gcry_cipher_encrypt(ecb_, subkey.data(), subkey.size(), blocks, sizeof(blocks));
  wipe_key_bytes(blocks);  // they hold K1, from which AES_K(0) follows
}

GcmKey::GcmKey() : gcm_(open_handle(GCRY_CIPHER_MODE_GCM)) {}

GcmKey::~GcmKey() { gcry_cipher_close(gcm_); }

void GcmKey::set_key(std::span<const uint8_t, kXaesKeyBytes> key) {
  if (gcry_cipher_setkey(gcm_, key.data(), key.size()) != 0) abort_on_crypto_failure("AES-256-GCM key");
}

bool GcmKey::seal(std::span<const uint8_t, kGcmNonceBytes> nonce, std::span<const uint8_t> aad, std::span<uint8_t> data,
                  std::span<uint8_t, kGcmTagBytes> tag) {
  // Setting the IV resets GCM's state for the next message.
  return gcry_cipher_setiv(gcm_, nonce.data(), nonce.size()) == 0 &&
         gcry_cipher_authenticate(gcm_, aad.data(), aad.size()) == 0 &&
         gcry_cipher_encrypt(gcm_, data.data(), data.size(), nullptr, 0) == 0 &&
         gcry_cipher_gettag(gcm_, tag.data(), tag.size()) == 0;
}

bool GcmKey::open(std::span<const uint8_t, kGcmNonceBytes> nonce, std::span<const uint8_t> aad, std::span<uint8_t> data,
                  std::span<const uint8_t, kGcmTagBytes> tag) {
  return gcry_cipher_setiv(gcm_, nonce.data(), nonce.size()) == 0 &&
         gcry_cipher_authenticate(gcm_, aad.data(), aad.size()) == 0 &&
         gcry_cipher_decrypt(gcm_, data.data(), data.size(), nullptr, 0) == 0 &&
         gcry_cipher_checktag(gcm_, tag.data(), tag.size()) == 0;
}

}  // namespace tracking
