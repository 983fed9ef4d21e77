#include "decision/geo/geoip_record_cache.h"

namespace decision::geo {

GeoIpRecord GeoIpRecordCache::lookup(const GeoIpDatabase& database, std::span<const uint8_t> address) {
  if (database_ != database.identity()) {
    slots_->fill(Slot{});
    database_ = database.identity();
  }
  const std::optional<uint32_t> offset = database.record_offset(address);
  if (!offset) return {};
  // Records are spread through the data section at byte offsets; a multiplicative hash
  // spreads their low bits over the slots.
  Slot& slot = (*slots_)[static_cast<uint32_t>(*offset * 0x9E3779B1u) >> (32 - kSlotBits)];
  if (!slot.used || slot.offset != *offset) {
    slot = Slot{*offset, true, database.record_at(*offset)};
    ++decoded_;
  }
  return slot.record;
}

}  // namespace decision::geo
