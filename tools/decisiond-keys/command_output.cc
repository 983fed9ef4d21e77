#include "tools/decisiond-keys/command_output.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "runtime/absl_view.h"

namespace tools::decisiond_keys {
namespace {

std::string created_json(const KeyInfo& key) {
  return key.created_s ? absl::StrCat("\"", created_text(key), "\"") : "null";
}

}  // namespace

std::string_view role_of(const KeyInfo& key) { return key.signing ? "signing" : "verifying"; }

std::string created_text(const KeyInfo& key) {
  if (!key.created_s) return "-";
  return absl::FormatTime("%Y-%m-%d%ET%H:%M:%SZ", absl::FromUnixSeconds(*key.created_s), absl::UTCTimeZone());
}

std::string listing_text(const KeyListing& listing, bool json) {
  if (json) {
    std::string out = absl::StrCat("{\"lastId\":", listing.last_id, ",\"keys\":[");
    for (size_t i = 0; i < listing.keys.size(); ++i) {
      const KeyInfo& key = listing.keys[i];
      absl::StrAppend(&out, i == 0 ? "" : ",", "{\"id\":", key.id, ",\"role\":\"", runtime::av(role_of(key)),
                      "\",\"created\":", created_json(key), "}");
    }
    return out + "]}\n";
  }
  std::string out = absl::StrFormat("%-6s %-10s %s\n", "ID", "ROLE", "CREATED");
  for (const KeyInfo& key : listing.keys) {
    absl::StrAppendFormat(&out, "%-6u %-10s %s\n", key.id, role_of(key), created_text(key));
  }
  absl::StrAppendFormat(&out, "last id given: %u (the next key gets %u)\n", listing.last_id,
                        static_cast<unsigned>(listing.last_id) + 1);
  return out;
}

std::string fingerprint_text(const KeySetFingerprint& fingerprint, bool json) {
  if (json) {
    std::string out = absl::StrCat("{\"fingerprint\":\"", fingerprint.fingerprint_hex, "\",\"keys\":[");
    for (size_t i = 0; i < fingerprint.keys.size(); ++i) {
      const FingerprintedKey& key = fingerprint.keys[i];
      absl::StrAppend(&out, i == 0 ? "" : ",", "{\"id\":", key.info.id, ",\"role\":\"", runtime::av(role_of(key.info)),
                      "\",\"created\":", created_json(key.info), ",\"fingerprint\":\"", key.fingerprint_hex, "\"}");
    }
    return out + "]}\n";
  }
  std::string out = absl::StrFormat("%-6s %-10s %-22s %s\n", "ID", "ROLE", "CREATED", "FINGERPRINT");
  for (const FingerprintedKey& key : fingerprint.keys) {
    absl::StrAppendFormat(&out, "%-6u %-10s %-22s %s\n", key.info.id, role_of(key.info), created_text(key.info),
                          key.fingerprint_hex);
  }
  absl::StrAppend(&out, "key set fingerprint: ", fingerprint.fingerprint_hex, "\n");
  return out;
}

std::string difference_text(const KeySetDifference& difference, std::string_view name_a, std::string_view name_b) {
  if (difference.same()) {
    return absl::StrCat("same keys (", absl::StrJoin(difference.shared_ids, ", "), "), key ", difference.signing_id_a,
                        " signs in both\n");
  }
  std::string out;
  for (uint16_t id : difference.only_in_a) absl::StrAppend(&out, "key ", id, ": only in ", runtime::av(name_a), "\n");
  for (uint16_t id : difference.only_in_b) absl::StrAppend(&out, "key ", id, ": only in ", runtime::av(name_b), "\n");
  for (uint16_t id : difference.different_bytes) {
    absl::StrAppend(&out, "key ", id, ": different key bytes under the same id\n");
  }
  if (difference.signing_id_a != difference.signing_id_b) {
    absl::StrAppend(&out, "signing key: ", difference.signing_id_a, " in ", runtime::av(name_a), ", ",
                    difference.signing_id_b, " in ", runtime::av(name_b), "\n");
  }
  return out + "the files differ\n";
}

}  // namespace tools::decisiond_keys
