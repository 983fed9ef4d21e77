#pragma once
// Targeting (docs/targeting.md) for one core: every targeting rule present on an ad must
// hold. Facts about the request are worked out once (its GeoIP record, the user's time
// zone, GDPR territory) and once per placement (its geo and destination sets, widened
// through the GeoNames hierarchy), so eligible() only compares. Rules run cheapest first:
// set intersections, then distances, then local clocks, then CEL programs (custom/).
#include <array>
#include <cstdint>
#include <span>

#include "absl/time/time.h"
#include "decision/geo/geoip_database.h"
#include "decision/geo/geoip_record_cache.h"
#include "decision/geo/geonames_hierarchy.h"
#include "decision/request/decision_request.h"
#include "decision/request/time_zone_cache.h"
#include "decision/selection/ad_selector.h"
#include "decision/targeting/rules/daypart_rule.h"
#include "decision/targeting/custom/custom_programs.h"
#include "decision/targeting/custom/custom_rule.h"

namespace decision::targeting {

// Read-only geography shared by every core; either may be absent.
struct GeoSources {
  const geo::GeoNamesHierarchy* hierarchy = nullptr;  // --geonames-dir
  const geo::GeoIpDatabase* geoip = nullptr;          // --geoip-db
};

// The rules of step 2 in the order eligible() runs them; kHolds when every rule present holds.
enum class TargetingCheck : uint8_t { kHolds, kGeo, kDestination, kLocation, kDaypart, kCustom };

// Where the zone that dayparts read when they name none came from.
enum class ZoneSource : uint8_t { kUserTimezone, kGeoIp, kUtc };

class TargetingRule final : public selection::EligibilityRule {
 public:
  explicit TargetingRule(GeoSources sources) : sources_(sources) {}

  // Once per request, before any placement. destination_understood: the version's flag;
  // without it the request's destination is ignored, so, as with no destination given,
  // destination-targeted ads are not eligible: an advertiser who named destinations never
  // meant clients that cannot state one.
  // programs: the `custom` rules of the catalog this request is served from.
  void begin_request(const request::DecisionRequest& request, int64_t now_s,
                     bool destination_understood, const CustomPrograms& programs);
  // Once per placement, before its ads are chosen.
  void begin_placement(const request::PlacementRequest& placement);

  bool eligible(const catalog::Ad& ad, uint32_t ad_index) override;
  // The rule eligible() stops at: the same checks, naming the one that failed.
  TargetingCheck first_failing(const catalog::Ad& ad, uint32_t ad_index);

  // A new GeoIP database (a reload), between requests; the record cache keys its records by
  // the database they came from, so it never serves the old one's.
  void set_geoip(const geo::GeoIpDatabase* geoip) { sources_.geoip = geoip; }

  // docs/targeting.md, "GDPR": whether the user's id may be used (frequency caps, tokens).
  // No id: no. In GDPR territory (GeoIP's EU flag or country, or a GDPR country in any
  // placement's geo): only with consent, `true` or a TC string consenting to purpose 1.
  bool user_id_usable() const { return user_id_usable_; }
  bool in_gdpr_territory() const { return in_gdpr_territory_; }
  // CustomRule's running totals (custom_rule.h).
  uint64_t custom_evaluations() const { return custom_.evaluations(); }
  uint64_t custom_errors() const { return custom_.errors(); }

  // What begin_request() and begin_placement() worked out, as the rules read it: for
  // explaining a decision (decision/explain/). Valid until the next begin_*().
  const geo::GeoIpRecord& ip_record() const { return ip_record_; }
  const absl::TimeZone& user_zone() const { return user_zone_; }
  ZoneSource user_zone_source() const { return user_zone_source_; }
  std::span<const uint64_t> placement_geo() const { return {geo_.data(), geo_count_}; }
  std::span<const uint64_t> placement_destination() const { return {destination_.data(), destination_count_}; }
  // Whether any id, widened, is a GDPR country.
  bool names_gdpr_country(std::span<const uint64_t> ids) const;
  // The ad's `custom` rule evaluated afresh for the current placement, value and all
  // (CustomRule::evaluate_for_explaining).
  CustomEvaluation evaluate_custom(uint32_t ad_index) { return custom_.evaluate_for_explaining(ad_index); }

 private:
  static constexpr size_t kMaxGeoSet = request::kMaxGeoIds * geo::kMaxWidened;
  static constexpr size_t kMaxDestinationSet = request::kMaxDestinationIds * geo::kMaxWidened;

  // The checks of eligible() and first_failing(), inlined into both (targeting_rule.cc).
  [[gnu::always_inline]] inline TargetingCheck check(const catalog::Ad& ad, uint32_t ad_index);
  // id and its known parents into out; returns the count.
  size_t widen(uint64_t id, std::span<uint64_t, geo::kMaxWidened> out) const;
  // Widened, sorted, unique ids into out; returns the count.
  size_t widen_sorted(std::span<const uint64_t> ids, std::span<uint64_t> out) const;

  GeoSources sources_;
  geo::GeoIpRecordCache geoip_records_;
  request::TimeZoneCache zones_;
  bool destination_understood_ = false;
  bool in_gdpr_territory_ = false;
  bool user_id_usable_ = false;
  // The geo of the request when its placement gives none: GeoIP's country, subdivision
  // and city (sorted).
  std::array<uint64_t, 3> ip_geo_{};
  size_t ip_geo_count_ = 0;
  // The current placement's sets.
  std::array<uint64_t, kMaxGeoSet> geo_{};
  size_t geo_count_ = 0;
  std::array<uint64_t, kMaxDestinationSet> destination_{};
  size_t destination_count_ = 0;
  std::span<const request::GeoPoint> points_;
  LocalClocks clocks_;
  CustomRule custom_;
  // Kept for the accessors above; last, so the members eligible() reads keep their places.
  geo::GeoIpRecord ip_record_;
  absl::TimeZone user_zone_ = absl::UTCTimeZone();
  ZoneSource user_zone_source_ = ZoneSource::kUtc;
};

}  // namespace decision::targeting
