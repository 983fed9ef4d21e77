#include "tracking/core_keys/key_reload.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/absl_view.h"
#include "tracking/tokens/key_set_difference.h"

namespace tracking {
namespace {

KeyReload refused(std::string why) {
  KeyReload reload;
  reload.refusal = std::move(why);
  return reload;
}

// The key in force signing, every key of the file opening. nullopt only past
// KeyRing::kMaxKeys (a file of 64 keys that also dropped the key in force): the ring is
// then published in one step.
std::optional<KeyRing> opening_ring(const KeyRing& in_force, const KeyRing& file) {
  std::vector<KeyEntry> entries;
  entries.reserve(file.entries().size() + 1);
  entries.push_back(in_force.signing_key());
  for (const KeyEntry& entry : file.entries()) {
    if (entry.id != in_force.signing_key().id) entries.push_back(entry);
  }
  absl::StatusOr<KeyRing> ring = KeyRing::from_entries(std::move(entries));
  if (!ring.ok()) return std::nullopt;
  return *std::move(ring);
}

}  // namespace

KeyReload plan_key_reload(const KeyRing& in_force, absl::StatusOr<KeyRing> read, std::string_view file) {
  if (!read.ok()) return refused(std::string(read.status().message()));
  const KeySetDifference difference = difference_of(in_force.entries(), read->entries());
  if (!difference.different_bytes.empty()) {
    return refused(absl::StrCat(runtime::av(file), ": key ", difference.different_bytes.front(),
                                " holds other bytes than the key of that id in force; an id names one key for all "
                                "time (docs/keys.md): rotate to a new id instead, or restart to replace the keys"));
  }
  KeyReload reload;
  if (difference.same()) {
    reload.result = KeyReloadResult::kUnchanged;
    return reload;
  }
  reload.result = KeyReloadResult::kApplied;
  if (in_force.find(difference.signing_id_b) == nullptr) reload.opening_first = opening_ring(in_force, *read);
  reload.ring.emplace(*std::move(read));
  return reload;
}

std::string describe_keys(const KeyRing& ring) {
  std::vector<uint16_t> ids;
  for (const KeyEntry& entry : ring.entries()) ids.push_back(entry.id);
  return absl::StrCat("key ", ring.signing_key().id, " signs; ", ids.size() == 1 ? "key " : "keys ",
                      absl::StrJoin(ids, ", "), ids.size() == 1 ? " opens" : " open");
}

}  // namespace tracking
