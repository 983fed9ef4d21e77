#include "caps/kept_impressions.h"

#include "runtime/check.h"

namespace caps {

void KeptImpressions::add(uint64_t user_key, uint64_t ad_id) {
  increment(user_key, ad_id);
  if (listener_ != nullptr) listener_->kept_changed(user_key, ad_id, /*added=*/true);
}

void KeptImpressions::remove(uint64_t user_key, uint64_t ad_id) {
  decrement(user_key, ad_id);
  if (listener_ != nullptr) listener_->kept_changed(user_key, ad_id, /*added=*/false);
}

void KeptImpressions::increment(uint64_t user_key, uint64_t ad_id) {
  auto& ads = by_user_[user_key];
  for (auto& [ad, count] : ads) {
    if (ad == ad_id) {
      ++count;
      return;
    }
  }
  ads.emplace_back(ad_id, 1);
}

void KeptImpressions::decrement(uint64_t user_key, uint64_t ad_id) {
  const auto found = by_user_.find(user_key);
  DECISIOND_CHECK_MSG(found != by_user_.end(), "kept impressions: a user removed who has none kept");
  auto& ads = found->second;
  for (size_t i = 0; i < ads.size(); ++i) {
    if (ads[i].first != ad_id) continue;
    if (--ads[i].second == 0) {
      ads.erase(ads.begin() + static_cast<ptrdiff_t>(i));
      if (ads.empty()) by_user_.erase(found);
    }
    return;
  }
  DECISIOND_CHECK_MSG(false, "kept impressions: an ad removed that has none kept");
}

}  // namespace caps
