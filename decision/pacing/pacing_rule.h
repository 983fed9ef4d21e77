#pragma once
// Delivery goals as the selector's eligibility rule (docs/pacing.md): runs after every
// other rule (targeting, caps), so what it counts as an opportunity is a decision the ad
// would otherwise have been a candidate in. An ad without a goal is never asked about.
#include "decision/pacing/core_pacing.h"
#include "decision/selection/ad_selector.h"
#include "decision/selection/core_random.h"

namespace decision::pacing {

class PacingRule final : public selection::EligibilityRule {
 public:
  // book: this core's; null: goals are not paced (tests and benchmarks without pacing).
  PacingRule(selection::EligibilityRule& before, CorePacing* book, selection::CoreRandom& random)
      : before_(before), book_(book), random_(random) {}

  bool eligible(const catalog::Ad& ad, uint32_t ad_index) override {
    if (!before_.eligible(ad, ad_index)) return false;
    if (!ad.delivery || book_ == nullptr) return true;
    if (book_->admit(ad.id, ad.delivery->index, random_)) return true;
    ++paced_out_;
    return false;
  }

  // A pick was returned: its token is spent.
  void served(const catalog::Ad& ad) {
    if (ad.delivery && book_ != nullptr) book_->served(ad.id, ad.delivery->index);
  }

  // Candidates kept out by pacing so far (a running total, for metrics).
  uint64_t paced_out() const { return paced_out_; }

 private:
  selection::EligibilityRule& before_;
  CorePacing* book_;
  selection::CoreRandom& random_;
  uint64_t paced_out_ = 0;
};

}  // namespace decision::pacing
