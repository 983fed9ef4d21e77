#pragma once
// Whether two nodes hold the same keys: a fingerprint of one keys.json that two nodes can
// compare by reading it aloud, and the differences between two files an operator has at hand.
// Both read the files with the server's own reader and rules (checked_key_file.h). Nothing
// here returns or prints key bytes: a fingerprint is SHA-256 over whole 256-bit keys behind a
// fixed label, from which the keys cannot be recovered.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/decisiond-keys/key_commands.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/key_set_difference.h"

namespace tools::decisiond_keys {

// The labels that keep these digests apart from any other SHA-256 of the same keys.
inline constexpr char kKeyFingerprintLabel[] = "decisiond keys.json key fingerprint v1";
inline constexpr char kKeySetFingerprintLabel[] = "decisiond keys.json key set fingerprint v1";
// A key's own fingerprint is shown cut to this many hex digits: enough to tell keys apart
// between nodes, short enough to read in a table.
inline constexpr size_t kKeyFingerprintHexDigits = 16;

struct FingerprintedKey {
  KeyInfo info;
  // The first kKeyFingerprintHexDigits of SHA-256(label || id, 2 bytes big-endian ||
  // aesKey || hmacKey) in lowercase hex.
  std::string fingerprint_hex;
};

struct KeySetFingerprint {
  std::vector<FingerprintedKey> keys;  // in file order: the signing key first
  // SHA-256 (64 lowercase hex digits) of the label followed by, for every key in increasing id
  // order, id (2 bytes big-endian) || role (1 signing, 0 verifying) || aesKey || hmacKey.
  // Equal for two files exactly when they hold the same keys with the same roles, whatever
  // the order of the verifying keys, their "created" times or "lastId".
  std::string fingerprint_hex;
};

// entries as a file lists them: the first one signs.
KeySetFingerprint fingerprint_of(std::span<const tracking::KeyEntry> entries);

// <state_dir>/keys.json's fingerprint. Takes no lock: like decisiond, it reads a file that
// changes only by rename, so it sees the old one or the new one whole.
absl::StatusOr<KeySetFingerprint> fingerprint_keys(const KeyPlace& place);

// How two files differ (tracking/tokens/key_set_difference.h, which the server's SIGHUP reload
// weighs too).
using tracking::difference_of;
using tracking::KeySetDifference;

// The keys.json at path, or in it when path is a directory (a state directory).
std::string key_file_at(const std::string& path);

// Reads both files (key_file_at) with the server's checks and compares them. An error names
// the file that could not be read or would be refused.
absl::StatusOr<KeySetDifference> compare_key_files(const std::string& path_a, const std::string& path_b);

}  // namespace tools::decisiond_keys
