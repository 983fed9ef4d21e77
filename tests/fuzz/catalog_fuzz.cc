// Fuzz driver for the catalog loader (decision/catalog/loader.h): the input is a catalog
// file or POST /admin/catalog body, loaded as the server loads it (targeting.custom rules
// checked by the CEL compiler). Invariants, any break aborts:
//   - a snapshot exactly when no error is listed; status() agrees; at most
//     kMaxReportedErrors errors and one that counts the rest, each with a message;
//   - loading the same text again lists the same errors (or an equal catalog);
//   - a snapshot is resolved: every index of an ad points into its table, every ad has a
//     weight and a creative, find_ad / find_placement give back what the lists hold, and
//     the index's candidates for each placement and format are ads of that placement, in
//     tiers of descending weight, with their own weights.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "decision/catalog/index.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/loader.h"
#include "decision/catalog/snapshot.h"
#include "cel/compile.h"

namespace {

namespace catalog = decision::catalog;

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "catalog_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

std::string outcome(const catalog::LoadResult& result) {
  if (result.ok()) {
    const catalog::CatalogSnapshot& s = *result.snapshot;
    return "ok " + std::string(s.revision()) + " ads " + std::to_string(s.ads().size()) + " placements " +
           std::to_string(s.placements().size());
  }
  std::string out;
  for (const catalog::CatalogError& e : result.errors) out.append(e.to_string()).append("\n");
  return out;
}

void check_snapshot(const catalog::CatalogSnapshot& s) {
  for (const catalog::Ad& ad : s.ads()) {
    check(ad.advertiser_index < s.advertisers().size() && ad.template_index < s.templates().size() &&
              ad.tier_index < s.priorities().size(),
          "an ad's advertiser, template and tier are in their tables");
    for (const uint32_t p : ad.placement_indexes) check(p < s.placements().size(), "an ad's placements are in the table");
    check(ad.weight > 0 && !ad.creatives.empty(), "an ad has a weight and a creative");
    check(s.find_ad(ad.id) == &ad, "find_ad gives the ad");
  }
  for (uint32_t p = 0; p < s.placements().size(); ++p) {
    const catalog::Placement& placement = s.placements()[p];
    check(s.find_placement(placement.key) == &placement, "find_placement gives the placement");
    for (const catalog::FormatFilter format :
         {catalog::FormatFilter::kNative, catalog::FormatFilter::kVideo, catalog::FormatFilter::kAny}) {
      uint64_t previous_weight = UINT64_MAX;
      for (const catalog::TierCandidates& tier : s.index().candidates(p, format)) {
        check(tier.tier_index < s.priorities().size() && tier.tier_weight <= previous_weight,
              "tiers in descending weight");
        previous_weight = tier.tier_weight;
        check(!tier.ad_indexes.empty() && tier.ad_indexes.size() == tier.weights.size(),
              "a tier lists ads and their weights");
        for (size_t i = 0; i < tier.ad_indexes.size(); ++i) {
          check(tier.ad_indexes[i] < s.ads().size(), "a candidate is an ad");
          const catalog::Ad& ad = s.ads()[tier.ad_indexes[i]];
          check(ad.tier_index == tier.tier_index && ad.weight == tier.weights[i], "a candidate has its tier and weight");
          bool placed = false;
          for (const uint32_t q : ad.placement_indexes) placed = placed || q == p;
          check(placed, "a candidate is an ad of the placement");
        }
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  catalog::LoadOptions options;
  options.check_custom = [](std::string_view source) { return cel::compile(source).status(); };

  const catalog::LoadResult result = catalog::load_catalog(text, options);
  check(result.ok() == result.errors.empty(), "a snapshot exactly when no error is listed");
  check(result.status().ok() == result.ok(), "status() agrees");
  if (!result.ok()) {
    check(result.status().code() == absl::StatusCode::kInvalidArgument, "a refusal is InvalidArgument");
    check(result.errors.size() <= catalog::kMaxReportedErrors + 1, "at most kMaxReportedErrors errors and a count");
    for (const catalog::CatalogError& e : result.errors) check(!e.message.empty(), "an error has a message");
  } else {
    check_snapshot(*result.snapshot);
  }
  check(outcome(catalog::load_catalog(text, options)) == outcome(result), "loading again gives the same outcome");
  return 0;
}
