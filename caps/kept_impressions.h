#pragma once
// Impressions a core keeps for the shared cap store (cluster mode, docs/cluster.md): logged
// "unapplied" because the store did not take them in time, and not yet applied again. Until
// they are, the store's state misses them, so this core's own decisions count them as
// pending serves are counted (docs/caps.md "While the store heals"): a user whose impression
// waits here is not served the ad past its cap by this node.
//
// Per core, single-threaded; written by the core's impression counter, read where the core
// decodes a user's state from the store. Empty, and untouched, while the store answers.
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"

namespace caps {

class KeptImpressions {
 public:
  void add(uint64_t user_key, uint64_t ad_id);
  // One kept impression of the ad applied at last (or given up): no longer counted here.
  void remove(uint64_t user_key, uint64_t ad_id);
  // visit(ad_id, count) for each ad with impressions of the user kept.
  template <typename Visit>
  void for_user(uint64_t user_key, Visit&& visit) const {
    if (by_user_.empty()) return;
    const auto found = by_user_.find(user_key);
    if (found == by_user_.end()) return;
    for (const auto& [ad_id, count] : found->second) visit(ad_id, count);
  }
  size_t users() const { return by_user_.size(); }

 private:
  // Most users with one kept impression of one or two ads.
  absl::flat_hash_map<uint64_t, absl::InlinedVector<std::pair<uint64_t, uint32_t>, 2>> by_user_;
};

}  // namespace caps
