#pragma once
// The placement keys that metrics name, bounded. A catalog may hold thousands of
// placements and a time series per placement, status and core would swamp a Prometheus
// server, so only the first kMaxLabelled distinct keys get a label of their own: those of
// the catalog started with, in file order, then keys that later catalogs bring, while
// slots are left. Every other placement counts under kOtherLabel.
//
// A key keeps its slot for the life of the process, through every catalog swap: a slot
// never changes meaning, so its counters never reset or change hands, every core counts
// the same placement in the same slot, and a scrape reads labels that never move under
// it. A placement dropped from the catalog keeps its (frozen) series; a restart starts
// afresh from the catalog in force.
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"

namespace decision::endpoint {

class PlacementLabels {
 public:
  static constexpr uint32_t kMaxLabelled = 64;
  static constexpr uint8_t kOtherSlot = kMaxLabelled;
  static constexpr uint32_t kSlots = kMaxLabelled + 1;  // the labelled ones and "other"
  // A placement whose key is this (keys are free text) counts in the "other" slot, so
  // that one label never names two things.
  static constexpr std::string_view kOtherLabel = "_other";

  PlacementLabels() = default;
  PlacementLabels(const PlacementLabels&) = delete;
  PlacementLabels& operator=(const PlacementLabels&) = delete;

  // Off the request path, from any thread (catalog builds): key's slot, taking the next
  // free one for a key not seen before; kOtherSlot when none is left.
  uint8_t slot_for(std::string_view key);

  // Any thread, without a lock: slots [0, labelled()) have their key set for good.
  uint32_t labelled() const { return labelled_.load(std::memory_order_acquire); }
  std::string_view key(uint32_t slot) const { return keys_[slot]; }

 private:
  std::mutex mutex_;  // between writers; readers go by labelled_
  absl::flat_hash_map<std::string, uint8_t> slots_;  // under mutex_
  std::array<std::string, kMaxLabelled> keys_;
  std::atomic<uint32_t> labelled_{0};
};

}  // namespace decision::endpoint
