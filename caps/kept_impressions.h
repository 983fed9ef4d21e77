#pragma once
// Impressions a core keeps for the shared cap store (cluster mode, docs/cluster.md): logged
// "unapplied" because the store did not take them in time, and not yet applied again. Until
// they are, the store's state misses them, so the node's decisions count them as pending
// serves are counted (docs/caps.md "While the shared store heals"): a user whose impression
// waits here is not served the ad past its cap by this node.
//
// Per core, single-threaded; written by the core's impression counter, read where the core
// decodes a user's state from the store. Empty, and untouched, while the store answers.
// The node's other cores keep theirs in it too: their changes arrive by message
// (caps/kept_across_cores.h), so every core of the node counts every kept impression.
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"

namespace caps {

// Told of this core's own changes, to pass them to the other cores.
class KeptImpressionsListener {
 public:
  virtual ~KeptImpressionsListener() = default;
  virtual void kept_changed(uint64_t user_key, uint64_t ad_id, bool added) = 0;
};

class KeptImpressions {
 public:
  // This core's own: told to the listener.
  void add(uint64_t user_key, uint64_t ad_id);
  // One kept impression of the ad applied at last (or given up): no longer counted here.
  void remove(uint64_t user_key, uint64_t ad_id);
  // Another core's, as its message tells them: not told again.
  void add_from_peer(uint64_t user_key, uint64_t ad_id) { increment(user_key, ad_id); }
  void remove_from_peer(uint64_t user_key, uint64_t ad_id) { decrement(user_key, ad_id); }
  void set_listener(KeptImpressionsListener* listener) { listener_ = listener; }
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
  void increment(uint64_t user_key, uint64_t ad_id);
  void decrement(uint64_t user_key, uint64_t ad_id);

  KeptImpressionsListener* listener_ = nullptr;
  // Most users with one kept impression of one or two ads.
  absl::flat_hash_map<uint64_t, absl::InlinedVector<std::pair<uint64_t, uint32_t>, 2>> by_user_;
};

}  // namespace caps
