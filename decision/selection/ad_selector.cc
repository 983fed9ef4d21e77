#include "decision/selection/ad_selector.h"

#include <algorithm>

#include "decision/selection/weighted_sampler.h"

namespace decision::selection {

bool ChosenAds::contains(uint32_t ad_index) const {
  return std::find(ads_, ads_ + count_, ad_index) != ads_ + count_;
}

void ChosenAds::add(uint32_t ad_index) {
  if (count_ < kCapacity) ads_[count_++] = ad_index;
}

bool AdSelector::passes(const catalog::CatalogSnapshot& snapshot, uint32_t ad_index,
                        const PlacementFilter& filter, int64_t now_s, EligibilityRule* rule,
                        const ChosenAds& chosen) const {
  const catalog::Ad& ad = snapshot.ads()[ad_index];
  if (!ad.active_at(now_s)) return false;
  if (filter.advertiser_id && snapshot.advertisers()[ad.advertiser_index].id != *filter.advertiser_id) {
    return false;
  }
  if (filter.template_id && snapshot.templates()[ad.template_index].id != *filter.template_id) return false;
  if (chosen.contains(ad_index)) return false;
  return rule == nullptr || rule->eligible(ad, ad_index);
}

uint32_t AdSelector::select(const catalog::CatalogSnapshot& snapshot, uint32_t placement_index,
                            const PlacementFilter& filter, int64_t now_s, EligibilityRule* rule,
                            ChosenAds& chosen, std::span<Pick> out) {
  const size_t tier_capacity = snapshot.index().max_tier_size();
  if (weights_.size() < tier_capacity) {
    weights_.resize(tier_capacity);
    scratch_.resize(tier_capacity);
    drawn_.resize(tier_capacity);
  }
  uint32_t picked = 0;
  for (const catalog::TierCandidates& tier : snapshot.index().candidates(placement_index, filter.format)) {
    if (picked == out.size()) break;
    const size_t n = tier.ad_indexes.size();
    for (size_t i = 0; i < n; ++i) {
      weights_[i] = passes(snapshot, tier.ad_indexes[i], filter, now_s, rule, chosen) ? tier.weights[i] : 0;
    }
    const uint32_t wanted = static_cast<uint32_t>(out.size()) - picked;
    const uint32_t drawn = WeightedSampler::draw(std::span<const uint32_t>(weights_.data(), n),
                                                 std::span<uint32_t>(scratch_.data(), n),
                                                 std::span<uint32_t>(drawn_.data(), std::min<size_t>(wanted, n)),
                                                 random_);
    for (uint32_t d = 0; d < drawn; ++d) {
      const uint32_t ad_index = tier.ad_indexes[drawn_[d]];
      const catalog::Ad& ad = snapshot.ads()[ad_index];
      const auto creative = static_cast<uint32_t>(random_.below(ad.creatives.size()));
      out[picked++] = Pick{ad_index, creative};
      chosen.add(ad_index);
    }
  }
  return picked;
}

}  // namespace decision::selection
