#pragma once
// Cluster mode: an impression the shared store counted is added to the core's durable
// counts by ad (core_state.h, snapshotted with it), as the embedded counter adds its own,
// and then told to the next listener (the core's pacing book). The same loop turn writes its
// line, so a snapshot's counts and its start in the log agree, and a restart reads from the
// logs what the node counted (docs/pacing.md, "Restarts").
#include <cstdint>

#include "tracking/impressions/counted_by_ad.h"
#include "tracking/impressions/delivery_listener.h"

namespace tracking::impressions {

class CountedByAdKeeper final : public DeliveryListener {
 public:
  CountedByAdKeeper(CountedByAd& counted, DeliveryListener& next) : counted_(counted), next_(next) {}
  void counted(uint64_t ad_id) override {
    ++counted_[ad_id];
    next_.counted(ad_id);
  }

 private:
  CountedByAd& counted_;
  DeliveryListener& next_;
};

}  // namespace tracking::impressions
