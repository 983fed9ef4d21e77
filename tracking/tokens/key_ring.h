#pragma once
// The secret keys of tracking tokens and signed VAST tags (docs/keys.md), kept in
// <state-dir>/keys.json:
//
//   {"lastId": 2,
//    "keys": [
//     {"id": 2, "aesKey": "<base64 of 32 bytes>", "hmacKey": "<base64 of 32 bytes>",
//      "created": "2026-11-21T12:00:00Z"},
//     {"id": 1, "aesKey": "...", "hmacKey": "...", "created": "2026-05-02T08:00:00Z"}
//   ]}
//
//   lastId   optional integer 1..65535: the highest id ever given to a key of this file,
//            retired ones included; tools/decisiond-keys gives a new key lastId + 1 (or
//            more, when a listed id is higher) so that no id is ever used twice
//   id       integer 1..65535, unique in the file; tokens and tags carry it
//   aesKey   AES-256-GCM key of tracking tokens
//   hmacKey  HMAC-SHA256 key of signed VAST tag URLs
//            both: standard padded base64 (RFC 4648 section 4) of exactly 32 bytes, the
//            output of `openssl rand -base64 32`
//   created  optional RFC 3339 time, for operators; other members are ignored
//
// The first key encrypts and signs; every listed key decrypts and verifies. Rotation: put a
// new key first, keep the old one until what it issued has expired (--tracking-ttl,
// --vast-tag-ttl), then drop it; tools/decisiond-keys does both (docs/keys.md). The ring
// is read at start and again on SIGHUP (tracking/core_keys/key_reload.h). At most kMaxKeys
// keys.
//
// The file must not be accessible by group or others (chmod 600): it holds secrets, and a
// writable one would let others plant keys. When missing, it is created with one fresh key
// (mode 0600, written whole to a temporary file, fsync'd, renamed into place).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/clock.h"

namespace tracking {

inline constexpr size_t kSecretKeyBytes = 32;
using SecretKey = std::array<uint8_t, kSecretKeyBytes>;

// The keys listed under one key id.
struct KeyEntry {
  uint16_t id = 0;
  SecretKey aes_key{};
  SecretKey hmac_key{};
  std::optional<int64_t> created_s;  // Unix seconds, when the file says

  // Overwrites the secrets in a way the compiler may not drop (OPENSSL_cleanse).
  void wipe();
};

// <state_dir>/keys.json ("./keys.json" when state_dir is empty).
std::string key_file_path(std::string_view state_dir);

// A fresh entry from OpenSSL's private random generator.
absl::StatusOr<KeyEntry> generate_key_entry(uint16_t id, int64_t created_s);

// Immutable once built; shared read-only by every core. Move-only, so secrets are not copied
// around, and wiped (best effort) when destroyed.
class KeyRing {
 public:
  static constexpr size_t kMaxKeys = 64;

  // Reads <state_dir>/keys.json, or creates it (and state_dir) with one fresh key. Errors
  // name the file and, for its contents, the JSON path: "keys[1].aesKey: must be ...".
  static absl::StatusOr<KeyRing> load_or_create(
      std::string_view state_dir, const runtime::Clock& clock = runtime::SystemClock::instance());

  // Reads <state_dir>/keys.json, which must exist (NotFound otherwise), with the refusals of
  // load_or_create: for a reload, where a missing file is a mistake, not a first start.
  static absl::StatusOr<KeyRing> load(std::string_view state_dir);

  // The same, for a key file of this format anywhere (the TLS ticket keys, docs/tls.md):
  // load_or_create_file creates its directory and the file with one fresh key.
  static absl::StatusOr<KeyRing> load_file(const std::string& path);
  static absl::StatusOr<KeyRing> load_or_create_file(const std::string& path,
                                                     const runtime::Clock& clock = runtime::SystemClock::instance());

  // A ring of entries, first one signing: 1..kMaxKeys entries, ids non-zero and unique.
  static absl::StatusOr<KeyRing> from_entries(std::vector<KeyEntry> entries);

  KeyRing(KeyRing&& other) noexcept = default;
  KeyRing& operator=(KeyRing&& other) noexcept;
  KeyRing(const KeyRing&) = delete;
  KeyRing& operator=(const KeyRing&) = delete;
  ~KeyRing();

  // The key that encrypts and signs.
  const KeyEntry& signing_key() const { return entries_.front(); }
  // The key of that id, or nullptr. A scan of at most kMaxKeys (in practice two) ids.
  const KeyEntry* find(uint64_t id) const;
  std::span<const KeyEntry> entries() const { return entries_; }

 private:
  explicit KeyRing(std::vector<KeyEntry> entries) : entries_(std::move(entries)) {}
  void wipe();

  std::vector<KeyEntry> entries_;
};

}  // namespace tracking
