#include "tools/decisiond-keys/key_set.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string_view>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "tools/decisiond-keys/checked_key_file.h"

namespace tools::decisiond_keys {
namespace {

using tracking::KeyEntry;

constexpr size_t kSha256Bytes = 32;
// id, role and both keys: the most one key adds to a digest's input.
constexpr size_t kKeyRecordBytes = 2 + 1 + 2 * tracking::kSecretKeyBytes;

// Collects the bytes to hash and wipes them when it goes: they hold whole keys. Room for
// every key is reserved first, because a reallocation would leave key copies in freed memory.
class DigestInput {
 public:
  DigestInput(std::string_view label, size_t keys) {
    bytes_.reserve(label.size() + 1 + keys * kKeyRecordBytes);
    bytes_ = label;
    bytes_ += '\0';
  }
  DigestInput(const DigestInput&) = delete;
  DigestInput& operator=(const DigestInput&) = delete;
  ~DigestInput() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }

  void add_id(uint16_t id) {
    bytes_ += static_cast<char>(id >> 8);
    bytes_ += static_cast<char>(id & 0xff);
  }
  void add_byte(uint8_t byte) { bytes_ += static_cast<char>(byte); }
  void add_key(const tracking::SecretKey& key) { bytes_.append(reinterpret_cast<const char*>(key.data()), key.size()); }

  // Lowercase hex of the SHA-256 of everything added.
  std::string sha256_hex() const {
    unsigned char digest[kSha256Bytes];
    unsigned int size = 0;
    // SHA-256 of a few kilobytes in memory cannot fail short of a broken OpenSSL; the
    // check stays on in Release all the same.
    const int done = EVP_Digest(bytes_.data(), bytes_.size(), digest, &size, EVP_sha256(), nullptr);
    if (done != 1 || size != kSha256Bytes) std::abort();
    return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest), size));
  }

 private:
  std::string bytes_;
};

std::string key_fingerprint_hex(const KeyEntry& entry) {
  DigestInput input(kKeyFingerprintLabel, 1);
  input.add_id(entry.id);
  input.add_key(entry.aes_key);
  input.add_key(entry.hmac_key);
  return input.sha256_hex().substr(0, kKeyFingerprintHexDigits);
}

// read_key_file without its advice to run create: a file named for compare is often a copy
// from another node, and creating keys there is never the fix.
absl::StatusOr<tracking::KeyFileContents> read_compared_file(const std::string& path) {
  absl::StatusOr<tracking::KeyFileContents> contents = read_key_file(path);
  if (absl::IsNotFound(contents.status())) return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  return contents;
}

}  // namespace

KeySetFingerprint fingerprint_of(std::span<const KeyEntry> entries) {
  KeySetFingerprint result;
  for (size_t i = 0; i < entries.size(); ++i) {
    const KeyEntry& entry = entries[i];
    result.keys.push_back({KeyInfo{entry.id, i == 0, entry.created_s}, key_fingerprint_hex(entry)});
  }
  DigestInput input(kKeySetFingerprintLabel, entries.size());
  const uint16_t signing_id = entries.empty() ? 0 : entries.front().id;
  for (const KeyEntry* entry : tracking::entries_by_id(entries)) {
    input.add_id(entry->id);
    input.add_byte(entry->id == signing_id ? 1 : 0);
    input.add_key(entry->aes_key);
    input.add_key(entry->hmac_key);
  }
  result.fingerprint_hex = input.sha256_hex();
  return result;
}

absl::StatusOr<KeySetFingerprint> fingerprint_keys(const KeyPlace& place) {
  absl::StatusOr<tracking::KeyFileContents> contents = read_key_file(place.path);
  if (!contents.ok()) return contents.status();
  return fingerprint_of(contents->entries);
}

std::string key_file_at(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) return tracking::key_file_path(path);
  return path;
}

absl::StatusOr<KeySetDifference> compare_key_files(const std::string& path_a, const std::string& path_b) {
  absl::StatusOr<tracking::KeyFileContents> a = read_compared_file(key_file_at(path_a));
  if (!a.ok()) return a.status();
  absl::StatusOr<tracking::KeyFileContents> b = read_compared_file(key_file_at(path_b));
  if (!b.ok()) return b.status();
  return difference_of(a->entries, b->entries);
}

}  // namespace tools::decisiond_keys
