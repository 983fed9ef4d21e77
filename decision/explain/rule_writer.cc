// The details of the rule that excluded a candidate, by what the rule looks at
// (docs/explain.md "Rules").
#include <optional>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "caps/cap_windows.h"
#include "decision/explain/explanation_parts.h"
#include "decision/response/public_ids.h"
#include "decision/targeting/rules/great_circle.h"

namespace decision::explain {
namespace {

void write_daypart_details(JsonWriter& json, const Context& context, const catalog::Ad& ad) {
  const absl::Time now = absl::FromUnixSeconds(context.facts.now_s);
  json.literal_key("dayparts").begin_array();
  for (const catalog::Daypart& daypart : ad.targeting.dayparts) {
    const bool own_zone = daypart.has_time_zone();
    const absl::TimeZone& zone = own_zone ? daypart.time_zone : context.facts.user_zone;
    const absl::CivilMinute local = absl::ToCivilMinute(now, zone);
    const int weekday = static_cast<int>(absl::GetWeekday(absl::CivilDay(local)));
    const int minute = local.hour() * 60 + local.minute();
    json.begin_object().literal_key("days").begin_array();
    for (int d = 0; d < 7; ++d) {
      if ((daypart.days >> d & 1) != 0) json.string(kWeekdays[d]);
    }
    json.end_array();
    json.literal_key("start").string(minute_text(daypart.start_minute));
    json.literal_key("end").string(minute_text(daypart.end_minute));
    json.literal_key("zone").string(own_zone ? std::string_view(daypart.time_zone_name) : context.facts.zone_name);
    json.literal_key("zoneSource").string(own_zone ? "daypart" : zone_source_name(context.facts.zone_source));
    json.literal_key("localTime").string(absl::FormatTime("%Y-%m-%dT%H:%M:%S%Ez", now, zone));
    json.literal_key("localWeekday").string(kWeekdays[weekday]);
    json.literal_key("holds").boolean(daypart.contains(weekday, minute));
    json.end_object();
  }
  json.end_array();
}

void write_location_details(JsonWriter& json, const PlacementExplanation& placement, const catalog::Ad& ad) {
  json.literal_key("requestPoints");
  write_request_points(json, placement.points);
  json.literal_key("adCircles").begin_array();
  for (const catalog::GeoCircle& circle : ad.targeting.locations) {
    json.begin_object().literal_key("lat").number(circle.lat).literal_key("lon").number(circle.lon);
    json.literal_key("radiusKm").number(circle.radius_km).literal_key("nearest");
    // The point that comes closest to being inside the circle.
    std::optional<size_t> best;
    double best_margin = 0, best_distance = 0;
    for (size_t p = 0; p < placement.points.size(); ++p) {
      const request::GeoPoint& point = placement.points[p];
      const double distance = targeting::great_circle_km(circle.lat, circle.lon, point.lat_deg, point.lon_deg);
      const double margin = distance - (circle.radius_km + point.radius_km);
      if (!best || margin < best_margin) {
        best = p;
        best_margin = margin;
        best_distance = distance;
      }
    }
    if (!best) {
      json.null();
    } else {
      json.begin_object().literal_key("point").number(static_cast<uint64_t>(*best));
      json.literal_key("distanceKm").number(km(best_distance));
      json.literal_key("withinKm").number(circle.radius_km + placement.points[*best].radius_km).end_object();
    }
    json.end_object();
  }
  json.end_array();
}

// The request's own filters: format, advertiser, template.
void write_filter_details(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                          const catalog::Ad& ad, Rule rule) {
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  switch (rule) {
    case Rule::kFormat:
      json.literal_key("adFormat").string(catalog::format_name(ad.format));
      json.literal_key("served").string(format_filter_name(placement.format));
      json.literal_key("because").string(placement.format_from_version ? "version" : "format_filter");
      return;
    case Rule::kAdvertiser:
      json.literal_key("requested");
      response::write_public_id(json, response::kAdvertiserPrefix, placement.advertiser_id.value_or(0));
      json.literal_key("adAdvertiser");
      response::write_public_id(json, response::kAdvertiserPrefix, snapshot.advertisers()[ad.advertiser_index].id);
      return;
    case Rule::kTemplate:
      json.literal_key("requested");
      response::write_public_id(json, response::kTemplatePrefix, placement.template_id.value_or(0));
      json.literal_key("adTemplate");
      response::write_public_id(json, response::kTemplatePrefix, snapshot.templates()[ad.template_index].id);
      return;
    default:
      return;
  }
}

void write_flight_details(JsonWriter& json, const Context& context, const catalog::Ad& ad) {
  json.literal_key("state").string(context.facts.now_s < ad.start_s ? "not_started" : "ended");
  json.literal_key("start").string(utc_text(ad.start_s));
  json.literal_key("end");
  if (ad.has_end()) {
    json.string(utc_text(ad.end_s));
  } else {
    json.null();
  }
  json.literal_key("now").string(utc_text(context.facts.now_s));
}

// The ad's targeting: geo, destination, location, daypart, custom expression.
void write_targeting_details(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                             const Candidate& candidate, const catalog::Ad& ad, Rule rule) {
  switch (rule) {
    case Rule::kGeo:
      json.literal_key("requestGeo");
      write_ids(json, placement.geo);
      json.literal_key("requestGeoSource").string(geo_source_name(placement.geo_source));
      json.literal_key("adGeo");
      write_ids(json, ad.targeting.geo);
      return;
    case Rule::kDestination:
      json.literal_key("requestDestination");
      write_ids(json, placement.destination);
      json.literal_key("destinationRead").boolean(context.facts.destination_read);
      json.literal_key("adDestination");
      write_ids(json, ad.targeting.destination);
      return;
    case Rule::kLocation:
      write_location_details(json, placement, ad);
      return;
    case Rule::kDaypart:
      write_daypart_details(json, context, ad);
      return;
    case Rule::kCustom:
      json.literal_key("expression").string(ad.targeting.custom ? std::string_view(ad.targeting.custom->source) : "");
      json.literal_key("value");
      if (candidate.verdict.custom_error) {
        json.null().literal_key("error").string(candidate.verdict.custom_text);
      } else {
        json.raw(candidate.verdict.custom_text).literal_key("error").null();
      }
      return;
    default:
      return;
  }
}

// Selection among the eligible: the tier, another placement's pick, caps, the draw.
void write_selection_details(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                             const Candidate& candidate, const catalog::Ad& ad, Rule rule) {
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  switch (rule) {
    case Rule::kTierNotReached:
      json.literal_key("filledBy");
      if (placement.filled_by_tier) {
        json.string(snapshot.priorities()[*placement.filled_by_tier].key);
      } else {
        json.null();
      }
      return;
    case Rule::kAlreadyChosen: {
      const uint32_t by = candidate.chosen_by.value_or(0);
      json.literal_key("byPlacement").string(context.input.request.placements()[by].key);
      json.literal_key("byPlacementIndex").number(uint64_t{by});
      return;
    }
    case Rule::kFrequencyCap:
      json.literal_key("caps");
      write_caps(json, candidate.verdict.caps);
      return;
    case Rule::kNotDrawn: {
      const TierDraw* draw = nullptr;
      for (const TierDraw& d : placement.tiers) {
        if (d.tier_index == ad.tier_index) draw = &d;
      }
      json.literal_key("weight").number(uint64_t{ad.weight});
      json.literal_key("eligibleWeight").number(draw != nullptr ? draw->eligible_weight : 0);
      json.literal_key("asked").number(uint64_t{draw != nullptr ? draw->asked : 0});
      json.literal_key("drawn").begin_array();
      if (draw != nullptr) {
        for (uint32_t drawn : draw->drawn) write_ad_id(json, snapshot, drawn);
      }
      json.end_array();
      return;
    }
    default:
      return;
  }
}

}  // namespace

void write_caps(JsonWriter& json, std::span<const CapCount> caps) {
  json.begin_array();
  for (const CapCount& count : caps) {
    json.begin_object();
    json.literal_key("impressions").number(uint64_t{count.cap.impressions});
    json.literal_key("windowSeconds").number(uint64_t{count.cap.window_s});
    // A saturated bucket reads as the most a bucket holds: it blocks whatever the cap.
    json.literal_key("counted").number(count.counted == caps::kSaturatedCount ? uint64_t{UINT16_MAX} : count.counted);
    json.literal_key("pending").number(uint64_t{count.pending});
    json.literal_key("exact").boolean(count.cap.impressions <= caps::kRecentImpressions);
    json.literal_key("holds").boolean(count.holds());
    json.end_object();
  }
  json.end_array();
}

void write_rule(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                const Candidate& candidate, Rule rule, bool with_otherwise) {
  const catalog::Ad& ad = context.snapshot.ads()[candidate.ad_index];
  json.begin_object().literal_key("name").string(rule_name(rule));
  switch (rule) {
    case Rule::kFormat:
    case Rule::kAdvertiser:
    case Rule::kTemplate:
      write_filter_details(json, context, placement, ad, rule);
      break;
    case Rule::kFlightDates:
      write_flight_details(json, context, ad);
      break;
    case Rule::kGeo:
    case Rule::kDestination:
    case Rule::kLocation:
    case Rule::kDaypart:
    case Rule::kCustom:
      write_targeting_details(json, context, placement, candidate, ad, rule);
      break;
    case Rule::kTierNotReached:
    case Rule::kAlreadyChosen:
    case Rule::kFrequencyCap:
    case Rule::kPacing:
    case Rule::kNotDrawn:
      write_selection_details(json, context, placement, candidate, ad, rule);
      break;
  }
  if (with_otherwise && (rule == Rule::kFormat || rule == Rule::kTierNotReached)) {
    json.literal_key("otherwise");
    if (candidate.otherwise) {
      write_rule(json, context, placement, candidate, *candidate.otherwise, /*with_otherwise=*/false);
    } else {
      json.null();
    }
  }
  json.end_object();
}

}  // namespace decision::explain
