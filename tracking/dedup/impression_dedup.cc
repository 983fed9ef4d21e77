#include "tracking/dedup/impression_dedup.h"

#include <algorithm>

namespace tracking::dedup {

bool ImpressionDedup::first_sighting(uint64_t token_id, int64_t expires_s, int64_t now_s) {
  bool created = false;
  Entry* e = table_.insert(stored(token_id), now_s, created);
  if (!created) return false;
  // A token expiring this very second is refused from the next one on; keep it until then.
  e->expires_s = static_cast<uint32_t>(std::clamp<int64_t>(std::max(expires_s, now_s + 1), 1, UINT32_MAX));
  return true;
}

}  // namespace tracking::dedup
