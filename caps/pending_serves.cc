#include "caps/pending_serves.h"

#include <algorithm>

namespace caps {

namespace {
bool pending_at(uint32_t lapses_s, int64_t now_s) { return lapses_s != 0 && now_s < int64_t{lapses_s}; }
}  // namespace

uint32_t pending_in(const CapEntry& e, int64_t now_s) {
  uint32_t n = 0;
  for (uint32_t t : e.words) n += pending_at(t, now_s) ? 1 : 0;
  return n;
}

bool add_pending_serve(CapEntry& e, uint32_t lapses_s, int64_t now_s) {
  for (uint32_t& t : e.words) {
    if (pending_at(t, now_s)) continue;
    t = lapses_s;
    e.expires_s = std::max(e.expires_s, lapses_s);
    return true;
  }
  return false;
}

uint32_t earliest_pending(const CapEntry& e, uint32_t bound_s, int64_t now_s) {
  uint32_t earliest = 0;
  for (uint32_t t : e.words) {
    if (!pending_at(t, now_s) || t > bound_s) continue;
    if (earliest == 0 || t < earliest) earliest = t;
  }
  return earliest;
}

bool clear_pending_serve(CapEntry& e, uint32_t bound_s, int64_t now_s) {
  const uint32_t earliest = earliest_pending(e, bound_s, now_s);
  if (earliest == 0) return false;
  for (uint32_t& t : e.words) {
    if (t == earliest) {
      t = 0;
      return true;
    }
  }
  return false;
}

}  // namespace caps
