#pragma once
// The one key the benchmarks sign and seal with.
#include <utility>
#include <vector>

#include "tracking/tokens/key_ring.h"

inline tracking::KeyRing bench_ring() {
  std::vector<tracking::KeyEntry> entries;
  entries.push_back(*tracking::generate_key_entry(1, 1'763'683'200));
  return *tracking::KeyRing::from_entries(std::move(entries));
}
