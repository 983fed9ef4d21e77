#pragma once
// What an explained decision says (docs/explain.md): the request's facts, then per
// placement the draws of its tiers and every candidate ad of either format, in tier order,
// with the first rule that excluded it. Filled by ExplainingWalk, written by
// write_explanation; views point into the request and the catalog, which outlive both.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/time/time.h"
#include "caps/cap_windows.h"
#include "decision/pacing/core_pacing.h"
#include "decision/catalog/index.h"
#include "decision/geo/geoip_database.h"
#include "decision/request/decision_request.h"
#include "decision/selection/ad_selector.h"
#include "decision/targeting/rules/targeting_rule.h"

namespace decision::explain {

// The rules a candidate can fail, in the order the decision meets them: the placement's
// format (the candidate index is per format), the tier (a tier is looked at only while
// the placement still wants creatives), then the ad's own checks in AdSelector::passes
// order, targeting in TargetingRule order, caps last; not drawn when all of them held.
enum class Rule : uint8_t {
  kFormat,
  kTierNotReached,
  kFlightDates,
  kAdvertiser,
  kTemplate,
  kAlreadyChosen,
  kGeo,
  kDestination,
  kLocation,
  kDaypart,
  kCustom,
  kFrequencyCap,
  kPacing,
  kNotDrawn,
};
std::string_view rule_name(Rule rule);

// Whether the request's frequency caps are read, and why (docs/caps.md, docs/targeting.md).
enum class CapsUse : uint8_t {
  kApplied,                // a user id that may be used
  kNoUserId,               // no user.id
  kGdprWithoutConsent,     // in GDPR territory, consent not given
  kConsentRefused,         // user.consent.gdpr false
  kConsentStringRefuses,   // a TC string that does not consent to purpose 1
};
std::string_view caps_use_name(CapsUse use);

// Where a placement's geo set came from (docs/targeting.md "Geo").
enum class GeoSource : uint8_t { kRequest, kGeoIp, kNone };

struct CapCount {
  caps::CapRule cap;
  uint64_t counted = 0;  // caps::kSaturatedCount for a saturated bucket
  uint32_t pending = 0;  // serves of the ad still pending (a serve window is set)
  bool holds() const { return counted != caps::kSaturatedCount && counted + pending < cap.impressions; }
};

// What the ad's own checks say in one placement: flight dates, the advertiser and template
// filters, targeting, caps. The format, the tier and the other placements' choices are the
// placement's, kept in Candidate.
struct AdVerdict {
  std::optional<Rule> failed;  // the first that failed; nullopt: every one held
  // The custom rule, when it failed: its value as JSON, or the evaluation error.
  std::string custom_text;
  bool custom_error = false;
  // Counted for every capped ad when caps apply, whatever failed before.
  std::vector<CapCount> caps;
  bool caps_read = false;
  // An ad with a delivery goal: this core's share of it now (docs/pacing.md); nullopt when
  // the core holds no allotment for it (no round yet, or cluster mode).
  std::optional<pacing::CoreGoalView> pacing;
};

struct Candidate {
  uint32_t ad_index = 0;
  bool served = false;
  uint32_t creative_index = 0;  // served
  std::optional<Rule> rule;     // excluded: the first rule that excluded it
  // For kFormat and kTierNotReached: the rule that would have excluded it next (nullopt:
  // none, the draw would have decided).
  std::optional<Rule> otherwise;
  std::optional<uint32_t> chosen_by;  // the placement (request order) that took the ad first
  AdVerdict verdict;
};

// One tier of the placement as the selector met it (the candidates of the format served).
struct TierDraw {
  uint32_t tier_index = 0;
  bool reached = false;
  uint32_t asked = 0;            // creatives the placement still wanted when it was reached
  uint64_t eligible_weight = 0;  // of the candidates that passed every rule
  std::vector<uint32_t> drawn;   // ad indexes, in draw order
};

struct PlacementExplanation {
  std::string_view key;
  std::optional<uint32_t> placement_index;  // nullopt: unknown key (warning 20003)
  uint32_t count = 0;
  catalog::FormatFilter format = catalog::FormatFilter::kNative;
  bool format_from_version = false;  // the version serves native ads only, whatever was asked
  std::optional<uint64_t> advertiser_id;
  std::optional<uint64_t> template_id;
  GeoSource geo_source = GeoSource::kNone;
  std::vector<uint64_t> geo;          // widened, sorted
  std::vector<uint64_t> destination;  // widened, sorted; empty when the version reads none
  std::vector<request::GeoPoint> points;
  std::vector<TierDraw> tiers;
  std::optional<uint32_t> filled_by_tier;  // the tier whose draw completed `count`
  std::vector<selection::Pick> picks;      // as the decision would serve them
  std::vector<Candidate> candidates;       // every format, tier order
};

struct RequestFacts {
  int64_t now_s = 0;
  uint32_t received_on_core = 0;
  uint32_t decided_on_core = 0;
  std::optional<uint32_t> owner_core;  // of the user, when caps apply
  // GeoIP
  bool geoip_loaded = false;
  geo::GeoIpRecord ip_record;
  // The zone dayparts read when they name none.
  absl::TimeZone user_zone;
  targeting::ZoneSource zone_source = targeting::ZoneSource::kUtc;
  std::string_view zone_name;
  // GDPR territory and why.
  bool in_gdpr_territory = false;
  bool gdpr_by_eu_flag = false;
  bool gdpr_by_geoip_country = false;
  std::vector<uint32_t> gdpr_by_placements;  // request indexes whose geo names a GDPR country
  bool user_id_usable = false;
  CapsUse caps = CapsUse::kNoUserId;
  bool destination_read = false;  // the version reads targeting.destination
};

struct Explanation {
  RequestFacts facts;
  std::vector<PlacementExplanation> placements;  // request order
};

}  // namespace decision::explain
