#pragma once
// Impressions counted (first sightings, not invalid traffic) by ad id: what one core has
// counted over its event log's whole life, kept in its durable state and snapshotted with
// it (tracking/state/), so that delivery goals (docs/pacing.md) survive a restart.
#include <cstdint>

#include "absl/container/flat_hash_map.h"

namespace tracking::impressions {

using CountedByAd = absl::flat_hash_map<uint64_t, uint64_t>;

}  // namespace tracking::impressions
