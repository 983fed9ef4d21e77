// Fuzz driver for the keys file (tracking/tokens/key_file.h, <state-dir>/keys.json): the input is
// the file's text. Invariants, any break aborts:
//   - a refusal is InvalidArgument, its items joined by "; ", each "<path>: <problem>";
//   - a parsed file has 1..KeyRing::kMaxKeys entries with ids of 1..65535;
//   - the entries written back (format_key_file) parse to the same ids, keys and creation
//     times: what the server writes when it creates the file, it reads back;
//   - KeyRing::from_entries takes them exactly when no id repeats.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "tracking/tokens/key_file.h"
#include "tracking/tokens/key_ring.h"

namespace {

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "key_file_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

bool same_entries(const std::vector<tracking::KeyEntry>& a, const std::vector<tracking::KeyEntry>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].aes_key != b[i].aes_key || a[i].hmac_key != b[i].hmac_key ||
        a[i].created_s != b[i].created_s) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::vector<tracking::KeyEntry>> entries = tracking::parse_key_file(text);
  if (!entries.ok()) {
    check(entries.status().code() == absl::StatusCode::kInvalidArgument, "a refusal is InvalidArgument");
    for (const absl::string_view item : absl::StrSplit(entries.status().message(), "; ")) {
      check(item.find(": ") != absl::string_view::npos, "each item is \"<path>: <problem>\"");
    }
    return 0;
  }
  check(!entries->empty() && entries->size() <= tracking::KeyRing::kMaxKeys, "1..kMaxKeys entries");
  std::set<uint16_t> ids;
  for (const tracking::KeyEntry& entry : *entries) {
    check(entry.id >= 1, "ids are 1..65535");
    ids.insert(entry.id);
  }

  const std::string written = tracking::format_key_file(*entries);
  const absl::StatusOr<std::vector<tracking::KeyEntry>> again = tracking::parse_key_file(written);
  if (!again.ok()) std::fprintf(stderr, "%s\n", std::string(again.status().message()).c_str());
  check(again.ok() && same_entries(*again, *entries), "the entries written back parse the same");

  const bool unique = ids.size() == entries->size();
  const absl::StatusOr<tracking::KeyRing> ring = tracking::KeyRing::from_entries(*std::move(entries));
  check(ring.ok() == unique, "a ring takes the entries exactly when no id repeats");
  return 0;
}
