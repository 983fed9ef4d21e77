#pragma once
// Counts impressions on the core that owns them (docs/tracking.md, docs/caps.md): a token counts
// once however often it is called (the dedup set), a first sighting with a user id counts
// against the user's caps, and every call is logged, repeats marked as duplicates.
#include <cstdint>

#include "caps/cap_store.h"
#include "runtime/core_counter.h"
#include "tracking/dedup/impression_dedup.h"
#include "tracking/impressions/ad_caps.h"
#include "tracking/impressions/counted_by_ad.h"
#include "tracking/impressions/delivery_listener.h"
#include "tracking/impressions/impression_notice.h"
#include "tracking/events/event_log.h"

namespace tracking::impressions {

struct ImpressionCounters {
  runtime::CoreCounter counted;     // first sightings
  runtime::CoreCounter duplicates;  // repeats: answered 204, neither counted nor capped
};

class ImpressionCounter {
 public:
  // All belong to this core and outlive the counter.
  ImpressionCounter(uint32_t core, dedup::ImpressionDedup& dedup, caps::CapStore& caps, const AdCaps& ad_caps,
                    events::EventLog& log, CountedByAd& counted_by_ad)
      : core_(core), dedup_(dedup), caps_(caps), ad_caps_(ad_caps), log_(log), counted_by_ad_(counted_by_ad) {}

  // Told of every impression counted from now on (null: nobody); on this core's thread.
  void set_delivery_listener(DeliveryListener* listener) { delivery_ = listener; }

  void count(const ImpressionNotice& notice);
  const ImpressionCounters& counters() const { return counters_; }

 private:
  uint32_t core_;
  dedup::ImpressionDedup& dedup_;
  caps::CapStore& caps_;
  const AdCaps& ad_caps_;
  events::EventLog& log_;
  CountedByAd& counted_by_ad_;
  DeliveryListener* delivery_ = nullptr;
  ImpressionCounters counters_;
};

}  // namespace tracking::impressions
