#pragma once
// Eligibility while the targeting rules of DESIGN section 4 step 2 are not evaluated yet:
// an ad carrying any rule (geo, location, custom, dayparts, destination) is not eligible.
// Serving it without checking would show it to exactly the users it excludes; holding it
// back only delays it. Frequency caps hold trivially until impressions are counted (the
// tracking endpoint), since no impression has been recorded for any user.
#include "decision/selection/ad_selector.h"

namespace decision::endpoint {

class UntargetedOnly final : public selection::EligibilityRule {
 public:
  bool eligible(const catalog::Ad& ad, uint32_t) override { return ad.targeting.empty(); }
};

}  // namespace decision::endpoint
