#include "tracking/impressions/impression_counter.h"

#include "caps/user_key.h"
#include "tracking/dedup/impression_key.h"

namespace tracking::impressions {

void ImpressionCounter::count(const ImpressionNotice& notice) {
  const int64_t now_s = notice.time_ms / 1000;
  const std::optional<uint64_t> user_key =
      notice.has_user ? std::optional<uint64_t>(caps::user_key(notice.user_id)) : std::nullopt;
  const bool first = dedup_.first_sighting(dedup::impression_key(user_key, notice.token_id), notice.expires_s, now_s);
  if (first) {
    counters_.counted.add();
    ++counted_by_ad_[notice.ad_id];
    if (delivery_ != nullptr) delivery_->counted(notice.ad_id);
    if (user_key) {
      caps_.record(*user_key, notice.ad_id, ad_caps_.caps_of(notice.ad_id), now_s);
      caps_.clear_pending(*user_key, notice.ad_id, notice.issued_s, now_s);
    }
  } else {
    counters_.duplicates.add();
  }
  events::EventRecord record;
  record.time_ms = notice.time_ms;
  record.kind = "impression";
  record.ad = notice.ad_id;
  record.creative = notice.creative_id;
  record.placement = notice.placement_id;
  record.request_id = notice.request_id;
  if (notice.has_user) record.user = notice.user_id;
  record.core = core_;
  record.tracking = true;
  record.duplicate = !first;
  record.issued_s = notice.issued_s;
  record.expires_s = notice.expires_s;
  record.token_id = notice.token_id;
  log_.append(record);
}

}  // namespace tracking::impressions
