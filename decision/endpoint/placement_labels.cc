#include "decision/endpoint/placement_labels.h"

#include "runtime/absl_view.h"

namespace decision::endpoint {

uint8_t PlacementLabels::slot_for(std::string_view key) {
  if (key == kOtherLabel) return kOtherSlot;
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto found = slots_.find(runtime::av(key)); found != slots_.end()) return found->second;
  const uint32_t next = labelled_.load(std::memory_order_relaxed);
  if (next == kMaxLabelled) return kOtherSlot;
  keys_[next] = std::string(key);
  slots_.emplace(keys_[next], static_cast<uint8_t>(next));
  labelled_.store(next + 1, std::memory_order_release);  // the key is in place before readers see it
  return static_cast<uint8_t>(next);
}

}  // namespace decision::endpoint
