#include "tools/decisiond-keys/key_commands.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/decisiond-keys/checked_key_file.h"
#include "tracking/tokens/key_file.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/secret_file.h"

namespace tools::decisiond_keys {
namespace {

using tracking::KeyEntry;
using tracking::KeyFileContents;

constexpr mode_t kStateDirMode = 0750;  // what decisiond gives a state directory it creates
constexpr uint16_t kFirstKeyId = 1;
constexpr uint16_t kLastKeyId = 65535;

// An exclusive flock on the state directory for one read-modify-write of keys.json. decisiond
// takes no lock: it only reads the file (a rename shows it the old or the new one whole) or
// creates it without replacing.
class StateDirLock {
 public:
  static absl::StatusOr<StateDirLock> take(const std::string& state_dir) {
    const int fd = ::open(state_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("open ", state_dir));
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return absl::ErrnoToStatus(error, absl::StrCat("lock ", state_dir));
    }
    return StateDirLock(fd);
  }
  StateDirLock(StateDirLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  StateDirLock(const StateDirLock&) = delete;
  StateDirLock& operator=(const StateDirLock&) = delete;
  StateDirLock& operator=(StateDirLock&&) = delete;
  ~StateDirLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }

 private:
  explicit StateDirLock(int fd) : fd_(fd) {}
  int fd_;
};

std::string ids_of(const std::vector<KeyEntry>& entries) {
  return absl::StrJoin(entries, ", ", [](std::string* out, const KeyEntry& e) { absl::StrAppend(out, e.id); });
}

// Writes contents over path, after checking that decisiond would accept them.
absl::Status write_key_file(const std::string& path, const KeyFileContents& contents) {
  if (absl::StatusOr<tracking::KeyRing> ring = tracking::KeyRing::from_entries(contents.entries); !ring.ok()) {
    return absl::InternalError(absl::StrCat("refusing to write ", path, ": ", ring.status().message()));
  }
  std::string text = tracking::format_key_file(contents.entries, contents.last_id);
  absl::Status written = tracking::replace_secret_file(path, text);
  OPENSSL_cleanse(text.data(), text.size());
  return written;
}

KeyInfo info_of(const KeyEntry& entry, bool signing) { return {entry.id, signing, entry.created_s}; }

// The position of key id in entries; entries.size() when the file does not hold it.
size_t index_of(const std::vector<KeyEntry>& entries, uint16_t id) {
  size_t index = 0;
  while (index < entries.size() && entries[index].id != id) ++index;
  return index;
}

}  // namespace

KeyPlace::KeyPlace(const std::string& state_dir) : dir(state_dir), path(tracking::key_file_path(state_dir)) {}

KeyPlace key_place(const std::string& state_dir, const std::string& key_file) {
  if (key_file.empty()) return KeyPlace(state_dir);
  const size_t slash = key_file.rfind('/');
  return KeyPlace(slash == std::string::npos ? "." : slash == 0 ? "/" : key_file.substr(0, slash), key_file);
}

absl::StatusOr<KeyInfo> create_keys(const KeyPlace& place, int64_t now_s) {
  if (absl::Status made = tracking::make_directories(place.dir, kStateDirMode); !made.ok()) return made;
  absl::StatusOr<StateDirLock> lock = StateDirLock::take(place.dir);
  if (!lock.ok()) return lock.status();
  const std::string& path = place.path;
  absl::StatusOr<KeyEntry> entry = tracking::generate_key_entry(kFirstKeyId, now_s);
  if (!entry.ok()) return entry.status();
  const KeyInfo info = info_of(*entry, true);
  std::string text = tracking::format_key_file(std::span<const KeyEntry>(&*entry, 1));
  entry->wipe();
  // Never replaces: decisiond may have created the file at its first start, and keys that
  // signed tokens must not vanish.
  absl::Status created = tracking::create_secret_file(path, text);
  OPENSSL_cleanse(text.data(), text.size());
  if (created.code() == absl::StatusCode::kAlreadyExists) {
    return absl::AlreadyExistsError(absl::StrCat(path, ": already exists; rotate adds a key to it"));
  }
  if (!created.ok()) return created;
  return info;
}

absl::StatusOr<KeyListing> list_keys(const KeyPlace& place) {
  absl::StatusOr<StateDirLock> lock = StateDirLock::take(place.dir);
  if (!lock.ok()) return lock.status();
  absl::StatusOr<KeyFileContents> contents = read_key_file(place.path);
  if (!contents.ok()) return contents.status();
  KeyListing listing;
  listing.last_id = contents->last_id;
  for (size_t i = 0; i < contents->entries.size(); ++i) listing.keys.push_back(info_of(contents->entries[i], i == 0));
  return listing;
}

absl::StatusOr<KeyInfo> rotate_keys(const KeyPlace& place, int64_t now_s, NewKeyRole role) {
  absl::StatusOr<StateDirLock> lock = StateDirLock::take(place.dir);
  if (!lock.ok()) return lock.status();
  const std::string& path = place.path;
  absl::StatusOr<KeyFileContents> contents = read_key_file(path);
  if (!contents.ok()) return contents.status();
  if (contents->entries.size() >= tracking::KeyRing::kMaxKeys) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": already ", contents->entries.size(),
                                                      " keys, the most decisiond reads; retire one first"));
  }
  if (contents->last_id == kLastKeyId) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": every key id up to ", kLastKeyId, " has been given; ids are never reused"));
  }
  const uint16_t id = static_cast<uint16_t>(contents->last_id + 1);
  absl::StatusOr<KeyEntry> entry = tracking::generate_key_entry(id, now_s);
  if (!entry.ok()) return entry.status();
  const bool signing = role == NewKeyRole::kSigning;
  const KeyInfo info = info_of(*entry, signing);
  // A new vector rather than an insert: a reallocation would leave key copies in freed memory.
  // A verifying key goes right after the signing key, so the file still lists newest first
  // behind the one that signs.
  const std::vector<KeyEntry>& old_entries = contents->entries;
  const auto kept_first = old_entries.begin() + (signing ? 0 : 1);
  std::vector<KeyEntry> rotated;
  rotated.reserve(old_entries.size() + 1);
  rotated.insert(rotated.end(), old_entries.begin(), kept_first);
  rotated.push_back(*entry);
  rotated.insert(rotated.end(), kept_first, old_entries.end());
  entry->wipe();
  contents->wipe();
  contents->entries = std::move(rotated);
  contents->last_id = id;
  if (absl::Status written = write_key_file(path, *contents); !written.ok()) return written;
  return info;
}

absl::Status retire_key(const KeyPlace& place, uint16_t id) {
  absl::StatusOr<StateDirLock> lock = StateDirLock::take(place.dir);
  if (!lock.ok()) return lock.status();
  const std::string& path = place.path;
  absl::StatusOr<KeyFileContents> contents = read_key_file(path);
  if (!contents.ok()) return contents.status();
  std::vector<KeyEntry>& entries = contents->entries;
  const size_t index = index_of(entries, id);
  if (index == entries.size()) {
    return absl::NotFoundError(absl::StrCat(path, ": no key ", id, " (keys: ", ids_of(entries), ")"));
  }
  if (index == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": key ", id, " is the signing key; rotate first, then retire it once what it signed has expired"));
  }
  // Shifted down by hand so that the slot left over at the end is wiped before it goes.
  std::move(entries.begin() + static_cast<std::ptrdiff_t>(index) + 1, entries.end(),
            entries.begin() + static_cast<std::ptrdiff_t>(index));
  entries.back().wipe();
  entries.pop_back();
  return write_key_file(path, *contents);
}

absl::StatusOr<PromoteResult> promote_key(const KeyPlace& place, uint16_t id) {
  absl::StatusOr<StateDirLock> lock = StateDirLock::take(place.dir);
  if (!lock.ok()) return lock.status();
  const std::string& path = place.path;
  absl::StatusOr<KeyFileContents> contents = read_key_file(path);
  if (!contents.ok()) return contents.status();
  std::vector<KeyEntry>& entries = contents->entries;
  const size_t index = index_of(entries, id);
  if (index == entries.size()) {
    return absl::NotFoundError(absl::StrCat(path, ": no key ", id, " (keys: ", ids_of(entries), ")"));
  }
  PromoteResult result{.previous_signing_id = entries.front().id, .changed = index != 0};
  // Already signing: nothing is written, so running the same step twice (by hand or by
  // configuration management) changes nothing.
  if (!result.changed) return result;
  // Rotated in place, not erased and inserted: no key bytes are left in slots that go.
  std::rotate(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(index),
              entries.begin() + static_cast<std::ptrdiff_t>(index) + 1);
  if (absl::Status written = write_key_file(path, *contents); !written.ok()) return written;
  return result;
}

}  // namespace tools::decisiond_keys
