#include "tracking/tokens/key_ring.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tracking/tokens/key_file.h"
#include "tracking/tokens/secret_file.h"

namespace tracking {
namespace {

constexpr char kKeyFileName[] = "keys.json";
// The state directory also holds event logs that operators' tools read; the key file is
// protected by its own mode.
constexpr mode_t kStateDirMode = 0750;
constexpr uint16_t kFirstKeyId = 1;

absl::Status with_file(const std::string& path, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(path, ": ", status.message()));
}

absl::StatusOr<KeyRing> read_ring(const std::string& path, std::string_view text) {
  absl::StatusOr<std::vector<KeyEntry>> entries = parse_key_file(text);
  if (!entries.ok()) return with_file(path, entries.status());
  absl::StatusOr<KeyRing> ring = KeyRing::from_entries(*std::move(entries));
  if (!ring.ok()) return with_file(path, ring.status());
  return ring;
}

// Creates the file with one fresh key. AlreadyExists (a concurrent start won) is fine: the
// caller then reads the winner's file.
absl::Status create_key_file(const std::string& path, int64_t now_s) {
  absl::StatusOr<KeyEntry> entry = generate_key_entry(kFirstKeyId, now_s);
  if (!entry.ok()) return entry.status();
  std::string text = format_key_file(std::span<const KeyEntry>(&*entry, 1));
  absl::Status created = create_secret_file(path, text);
  OPENSSL_cleanse(text.data(), text.size());
  entry->wipe();
  if (created.code() == absl::StatusCode::kAlreadyExists) return absl::OkStatus();
  return created;
}

}  // namespace

void KeyEntry::wipe() {
  OPENSSL_cleanse(aes_key.data(), aes_key.size());
  OPENSSL_cleanse(hmac_key.data(), hmac_key.size());
}

absl::StatusOr<KeyEntry> generate_key_entry(uint16_t id, int64_t created_s) {
  KeyEntry entry;
  entry.id = id;
  entry.created_s = created_s;
  // The private generator: OpenSSL keeps it apart from the one whose output (nonces) is
  // public.
  if (RAND_priv_bytes(entry.aes_key.data(), entry.aes_key.size()) != 1 ||
      RAND_priv_bytes(entry.hmac_key.data(), entry.hmac_key.size()) != 1) {
    return absl::InternalError("RAND_priv_bytes failed: no entropy for new keys");
  }
  return entry;
}

std::string key_file_path(std::string_view state_dir) {
  std::string path(state_dir.empty() ? std::string_view(".") : state_dir);
  path += '/';
  path += kKeyFileName;
  return path;
}

absl::StatusOr<KeyRing> KeyRing::load(std::string_view state_dir) { return load_file(key_file_path(state_dir)); }

absl::StatusOr<KeyRing> KeyRing::load_or_create(std::string_view state_dir, const runtime::Clock& clock) {
  return load_or_create_file(key_file_path(state_dir), clock);
}

absl::StatusOr<KeyRing> KeyRing::load_file(const std::string& path) {
  absl::StatusOr<std::string> text = read_secret_file(path, kMaxKeyFileBytes);
  if (!text.ok()) return text.status();
  absl::StatusOr<KeyRing> ring = read_ring(path, *text);
  OPENSSL_cleanse(text->data(), text->size());
  return ring;
}

absl::StatusOr<KeyRing> KeyRing::load_or_create_file(const std::string& path, const runtime::Clock& clock) {
  const size_t slash = path.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  absl::StatusOr<std::string> text = read_secret_file(path, kMaxKeyFileBytes);
  if (absl::IsNotFound(text.status())) {
    if (absl::Status made = make_directories(directory, kStateDirMode); !made.ok()) return made;
    if (absl::Status created = create_key_file(path, clock.wall_s()); !created.ok()) {
      return created;
    }
    // Read back what is on disk: one path for new and existing files, and the winner's keys
    // if another process created the file at the same time.
    text = read_secret_file(path, kMaxKeyFileBytes);
  }
  if (!text.ok()) return text.status();
  absl::StatusOr<KeyRing> ring = read_ring(path, *text);
  OPENSSL_cleanse(text->data(), text->size());
  return ring;
}

absl::StatusOr<KeyRing> KeyRing::from_entries(std::vector<KeyEntry> entries) {
  if (entries.empty()) return absl::InvalidArgumentError("keys: must list at least one key");
  if (entries.size() > kMaxKeys) {
    return absl::InvalidArgumentError(absl::StrCat("keys: at most ", kMaxKeys, " keys"));
  }
  std::vector<std::string> errors;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].id == 0) {
      errors.push_back(absl::StrCat("keys[", i, "].id: must be an integer in 1..65535"));
      continue;
    }
    for (size_t j = 0; j < i; ++j) {
      if (entries[j].id == entries[i].id) {
        errors.push_back(absl::StrCat("keys[", i, "].id: ", entries[i].id,
                                      " is already the id of keys[", j, "]"));
        break;
      }
    }
  }
  if (!errors.empty()) {
    for (KeyEntry& entry : entries) entry.wipe();
    return absl::InvalidArgumentError(absl::StrJoin(errors, "; "));
  }
  return KeyRing(std::move(entries));
}

KeyRing& KeyRing::operator=(KeyRing&& other) noexcept {
  if (this != &other) {
    wipe();
    entries_ = std::move(other.entries_);
  }
  return *this;
}

KeyRing::~KeyRing() { wipe(); }

void KeyRing::wipe() {
  for (KeyEntry& entry : entries_) entry.wipe();
}

const KeyEntry* KeyRing::find(uint64_t id) const {
  for (const KeyEntry& entry : entries_) {
    if (entry.id == id) return &entry;
  }
  return nullptr;
}

}  // namespace tracking
