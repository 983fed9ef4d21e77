#include "service/tls/ticket_keys.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cstring>
#include <string>

#include "tracking/tokens/key_ring.h"

namespace service {

namespace {

// A key's name in its tickets: a digest of the key itself, so two files that hold the same
// key name it alike, and a ticket never names another key by accident.
std::array<unsigned char, 16> name_of(const tracking::KeyEntry& entry) {
  static constexpr char kLabel[] = "decisiond tls ticket key";
  std::string input(kLabel, sizeof(kLabel) - 1);
  input.push_back(static_cast<char>(entry.id >> 8));
  input.push_back(static_cast<char>(entry.id & 0xff));
  input.append(reinterpret_cast<const char*>(entry.aes_key.data()), entry.aes_key.size());
  input.append(reinterpret_cast<const char*>(entry.hmac_key.data()), entry.hmac_key.size());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(input.data(), input.size(), digest, &length, EVP_sha256(), nullptr);
  OPENSSL_cleanse(input.data(), input.size());
  std::array<unsigned char, 16> name{};
  std::memcpy(name.data(), digest, name.size());
  return name;
}

}  // namespace

std::string ticket_key_file(const std::string& flag_value, const std::string& state_dir) {
  if (!flag_value.empty()) return flag_value;
  return (state_dir.empty() ? std::string(".") : state_dir) + "/tls-ticket-keys.json";
}

absl::StatusOr<std::vector<tls::TicketKey>> load_ticket_keys(const std::string& path, bool create) {
  absl::StatusOr<tracking::KeyRing> ring =
      create ? tracking::KeyRing::load_or_create_file(path) : tracking::KeyRing::load_file(path);
  if (!ring.ok()) return ring.status();
  std::vector<tls::TicketKey> keys;
  for (const tracking::KeyEntry& entry : ring->entries()) {
    tls::TicketKey key;
    key.name = name_of(entry);
    static_assert(sizeof(key.aes) == sizeof(entry.aes_key) && sizeof(key.hmac) == sizeof(entry.hmac_key));
    std::memcpy(key.aes.data(), entry.aes_key.data(), key.aes.size());
    std::memcpy(key.hmac.data(), entry.hmac_key.data(), key.hmac.size());
    keys.push_back(key);
  }
  return keys;
}

}  // namespace service
