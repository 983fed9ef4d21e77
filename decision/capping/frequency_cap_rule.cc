#include "decision/capping/frequency_cap_rule.h"

namespace decision::capping {

bool FrequencyCapRule::eligible(const catalog::Ad& ad, uint32_t ad_index) {
  if (!targeting_.eligible(ad, ad_index)) return false;
  if (store_ == nullptr || ad.frequency_caps.empty()) return true;
  if (store_->allows(user_key_, ad.id, ad.frequency_caps, now_s_)) return true;
  ++capped_;
  return false;
}

}  // namespace decision::capping
