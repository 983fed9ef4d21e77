#include "tests/integration/cluster/soak_index.h"

#include <algorithm>
#include <cstdint>

#include "redis_cluster/key_slot.h"
#include "tests/integration/cluster/cluster_load.h"

namespace integration {

LinesByIdentity index_by_identity(const std::vector<SoakLine>& lines) {
  LinesByIdentity index;
  for (const SoakLine& l : lines) {
    if (l.identity.empty()) continue;
    IdentityLines& entry = index[l.identity];
    if (l.kind == "decision") {
      entry.decision = &l;
      continue;
    }
    if (l.kind != "impression") continue;
    entry.impressions.push_back(&l);
    if (l.counted()) entry.counted.push_back(&l);
    if (l.store == "unapplied") entry.unapplied.push_back(&l);
  }
  // In the order they were written (a reapplied line keeps its impression's time_ms).
  const auto by_time = [](const SoakLine* a, const SoakLine* b) {
    return a->written_earliest_ms != b->written_earliest_ms ? a->written_earliest_ms < b->written_earliest_ms
                                                            : a->seq < b->seq;
  };
  for (auto& [identity, entry] : index) {
    std::stable_sort(entry.impressions.begin(), entry.impressions.end(), by_time);
    std::stable_sort(entry.counted.begin(), entry.counted.end(), by_time);
    std::stable_sort(entry.unapplied.begin(), entry.unapplied.end(), by_time);
  }
  return index;
}

std::string describe(const IdentityLines& lines) {
  std::string text;
  if (lines.decision != nullptr) {
    text += " [decided node" + std::to_string(lines.decision->node) + " t=" + std::to_string(lines.decision->time_ms) + "]";
  }
  for (const SoakLine* l : lines.impressions) {
    text += " [node" + std::to_string(l->node) + " core" + std::to_string(l->core) + " seq" + std::to_string(l->seq) +
            " t=" + std::to_string(l->time_ms) + " written " + std::to_string(l->written_earliest_ms) + ".." +
            (l->written_latest_ms == INT64_MAX ? std::string("end") : std::to_string(l->written_latest_ms)) +
            (l->duplicate ? " duplicate" : " first") +
            (l->store.empty() ? "" : " " + l->store) + (l->attempt.empty() ? "" : " attempt " + l->attempt) + "]";
  }
  return text;
}

std::string describe(const FaultRecord& fault) {
  return std::string(fault_name(fault.kind)) + " " + std::to_string(fault.target) + " t=" +
         std::to_string(fault.start_ms) + ".." + std::to_string(fault.healed_ms);
}

bool restart_resend_signature(const IdentityLines& lines) {
  for (size_t i = 0; i < lines.counted.size(); ++i) {
    for (size_t j = i + 1; j < lines.counted.size(); ++j) {
      const SoakLine& a = *lines.counted[i];
      const SoakLine& b = *lines.counted[j];
      if (!a.attempt.empty() && a.attempt == b.attempt && a.node == b.node) return true;
    }
  }
  return false;
}

int user_slot(const std::string& user) { return redis_cluster::key_slot(user_hash_key(user)); }

const FaultRecord* failover_after(const std::vector<FaultRecord>& faults, int slot, int64_t counted_ms,
                                  int64_t before_ms) {
  for (const FaultRecord& f : faults) {
    if (f.failed_over && f.hit_slot(slot) && counted_ms <= f.healed_ms && f.start_ms <= before_ms) return &f;
  }
  return nullptr;
}

}  // namespace integration
