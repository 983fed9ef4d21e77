#pragma once
// What decisiond-keys prints for list, fingerprint and compare, built as strings so that the
// tests read the same text operators do. Ids, roles, times and digests; never key bytes.
#include <string>
#include <string_view>

#include "tools/decisiond-keys/key_commands.h"
#include "tools/decisiond-keys/key_set.h"

namespace tools::decisiond_keys {

// "signing" or "verifying".
std::string_view role_of(const KeyInfo& key);

// RFC 3339 in UTC, or "-" when the file gives no time.
std::string created_text(const KeyInfo& key);

// A table (ID ROLE CREATED) and the last id given, or {"lastId":..,"keys":[..]}.
std::string listing_text(const KeyListing& listing, bool json);

// A table (ID ROLE CREATED FINGERPRINT) and "key set fingerprint: <64 hex>", or
// {"fingerprint":"<64 hex>","keys":[{"id":..,"role":..,"created":..,"fingerprint":..}]}.
std::string fingerprint_text(const KeySetFingerprint& fingerprint, bool json);

// One line per difference, naming the files as given, then a verdict line; or one line
// saying the files agree.
std::string difference_text(const KeySetDifference& difference, std::string_view name_a, std::string_view name_b);

}  // namespace tools::decisiond_keys
