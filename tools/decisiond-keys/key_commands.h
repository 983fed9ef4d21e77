#pragma once
// What decisiond-keys does to <state-dir>/keys.json (tracking/tokens/key_ring.h has the format,
// docs/keys.md the procedure). Every change is read, checked, written to a new file with
// mode 0600 and renamed over the old one (tracking::replace_secret_file), under an exclusive
// lock on the state directory so that two runs do not lose each other's change. A file
// that group or others can access is refused, as decisiond refuses it. Nothing here
// returns, prints or logs key bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace tools::decisiond_keys {

// Which key file a command works on, and the directory whose lock it takes: keys.json in
// the state directory, or --key-file (the TLS ticket keys, docs/tls.md) in its own.
struct KeyPlace {
  // keys.json in state_dir (implicit: a state directory is where keys live by default).
  KeyPlace(const std::string& state_dir);  // NOLINT(google-explicit-constructor)
  KeyPlace(std::string dir, std::string path) : dir(std::move(dir)), path(std::move(path)) {}
  std::string dir;
  std::string path;
};
KeyPlace key_place(const std::string& state_dir, const std::string& key_file);

// What `list` shows of a key.
struct KeyInfo {
  uint16_t id = 0;
  bool signing = false;               // the first key: seals and signs; every key verifies
  std::optional<int64_t> created_s;   // Unix seconds, when the file says
};

struct KeyListing {
  std::vector<KeyInfo> keys;  // in file order: the signing key first
  uint16_t last_id = 0;       // the highest id ever given; the next key gets last_id + 1
};

// Writes keys.json with one fresh key, id 1, creating the state directory (mode 0750, as
// decisiond does) if need be. AlreadyExists when the file exists: keys are never replaced.
absl::StatusOr<KeyInfo> create_keys(const KeyPlace& place, int64_t now_s);

absl::StatusOr<KeyListing> list_keys(const KeyPlace& place);

// What a key added by rotate does once decisiond re-reads the file (SIGHUP or a start).
enum class NewKeyRole {
  kSigning,    // seals and signs; the previous signing key only verifies
  kVerifying,  // only verifies; the signing key stays. The first phase of a rotation across
               // several nodes: every node must be able to open a key before any signs with it.
};

// Adds a fresh key with id last_id + 1; every other key stays. A signing key goes first, a
// verifying key right after the signing key. FailedPrecondition when the file already holds
// KeyRing::kMaxKeys keys, ResourceExhausted when id 65535 was given.
absl::StatusOr<KeyInfo> rotate_keys(const KeyPlace& place, int64_t now_s,
                                    NewKeyRole role = NewKeyRole::kSigning);

struct PromoteResult {
  uint16_t previous_signing_id = 0;
  bool changed = false;  // false: the key already signed, and the file was not rewritten
};

// Makes key id the signing key by moving it first; the previous signing key stays and
// verifies. NotFound for an id the file does not hold. The second phase of a rotation across
// several nodes, once every node holds the key (docs/keys.md, "Several nodes").
absl::StatusOr<PromoteResult> promote_key(const KeyPlace& place, uint16_t id);

// Drops key id. FailedPrecondition for the signing key (rotate first), NotFound for an id
// the file does not hold. lastId keeps the id, so it is never given again.
absl::Status retire_key(const KeyPlace& place, uint16_t id);

}  // namespace tools::decisiond_keys
