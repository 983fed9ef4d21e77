#pragma once
// Told of each impression counted on this core (a first sighting, not a duplicate, not
// invalid traffic), for delivery goals (docs/pacing.md). Tracking knows no goals: the
// service layer passes the core's pacing book.
#include <cstdint>

namespace tracking::impressions {

class DeliveryListener {
 public:
  virtual ~DeliveryListener() = default;
  virtual void counted(uint64_t ad_id) = 0;
};

}  // namespace tracking::impressions
