#pragma once
// Synthetic catalogs (docs/catalog.md) of any size, for benchmarks and tests: realistic
// and mixed (three tiers, flight dates, caps, every kind of targeting, localized creatives,
// video), valid for decision/catalog/loader.h, and a pure function of the options.
//
// The parts of the catalog draw from separate random streams. Targeting has its own, so
// a catalog generated without targeting holds the same ads, weights, placements, caps and
// creatives as the one with it: a benchmark compares the two and measures targeting alone.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace tools::gen_catalog {

struct GeneratorOptions {
  uint32_t ads = 1000;
  uint32_t placements = 10;
  uint32_t advertisers = 0;  // 0: ads / 50, at least 1
  uint32_t templates = 4;
  uint64_t seed = 1;
  double targeted_share = 0.5;  // of ads with a targeting object
  double capped_share = 0.5;    // of ads with frequency caps, drawn apart from targeting
  double video_share = 0.0;     // of ads with format video
  // Each ad is on 1..min(this, placements) placements, uniformly.
  uint32_t placements_per_ad_max = 3;
  // BCP 47 tags, as the loader normalises them; the first is the catalog's defaultLanguage
  // and every creative has content in it.
  std::vector<std::string> languages = {"en", "fr", "de"};
  // false: no ad carries targeting; everything else is as with true.
  bool targeting = true;
};

// What a generated catalog holds, for the tool's summary and for tests.
struct CatalogStats {
  uint32_t ads = 0;
  uint32_t placements = 0;
  uint32_t advertisers = 0;
  uint32_t templates = 0;
  uint64_t creatives = 0;
  uint64_t placement_links = 0;  // sum over ads of their placement count
  uint32_t targeted_ads = 0;
  uint32_t capped_ads = 0;
  uint32_t video_ads = 0;
  uint32_t ended_ads = 0;  // flights that ended in 2025: never active from 2026 on
  uint64_t bytes = 0;

  // Ads per placement (any format, any tier, before flight dates and targeting).
  double mean_candidates_per_placement() const {
    return placements == 0 ? 0 : static_cast<double>(placement_links) / placements;
  }
};

// OK, or INVALID_ARGUMENT naming the option at fault (by its gen-catalog flag) and its
// bounds.
absl::Status check_options(const GeneratorOptions& options);

// The catalog JSON text (compact, UTF-8). options must pass check_options (asserted).
std::string generate_catalog(const GeneratorOptions& options);
std::string generate_catalog(const GeneratorOptions& options, CatalogStats& stats);

// Advertisers generated when options.advertisers is 0.
uint32_t default_advertiser_count(uint32_t ads);

}  // namespace tools::gen_catalog
