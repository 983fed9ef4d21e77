#include "decision/explain/explanation_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "caps/cap_partition.h"
#include "decision/localization/language_match.h"
#include "decision/response/public_ids.h"
#include "decision/response/response_writer.h"
#include "decision/targeting/rules/great_circle.h"
#include "api_versions/phase.h"
#include "http/error_codes.h"
#include "http/json_writer.h"

namespace decision::explain {

namespace {

using http::JsonWriter;

constexpr std::string_view kWeekdays[7] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

std::string utc_text(int64_t unix_s) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(unix_s), absl::UTCTimeZone());
}

std::string minute_text(int minute_of_day) {
  char text[8];
  std::snprintf(text, sizeof(text), "%02d:%02d", minute_of_day / 60, minute_of_day % 60);
  return text;
}

// Kilometres to the metre: what a radius means, without 17 digits of noise.
double km(double value) { return std::round(value * 1000.0) / 1000.0; }

void write_ad_id(JsonWriter& json, const catalog::CatalogSnapshot& snapshot, uint32_t ad_index) {
  response::write_public_id(json, response::kAdPrefix, snapshot.ads()[ad_index].id);
}

void write_ids(JsonWriter& json, std::span<const uint64_t> ids) {
  json.begin_array();
  for (uint64_t id : ids) json.number(id);
  json.end_array();
}

void write_optional_id(JsonWriter& json, uint64_t id) {
  if (id == 0) {
    json.null();
  } else {
    json.number(id);
  }
}

void write_optional_text(JsonWriter& json, std::string_view text) {
  if (text.empty()) {
    json.null();
  } else {
    json.string(text);
  }
}

std::string_view format_filter_name(catalog::FormatFilter filter) {
  switch (filter) {
    case catalog::FormatFilter::kNative: return "native";
    case catalog::FormatFilter::kVideo: return "video";
    case catalog::FormatFilter::kAny: return "any";
  }
  return "unknown";
}

std::string_view zone_source_name(targeting::ZoneSource source) {
  switch (source) {
    case targeting::ZoneSource::kUserTimezone: return "user.timezone";
    case targeting::ZoneSource::kGeoIp: return "geoip";
    case targeting::ZoneSource::kUtc: return "utc";
  }
  return "unknown";
}

std::string_view geo_source_name(GeoSource source) {
  switch (source) {
    case GeoSource::kRequest: return "request";
    case GeoSource::kGeoIp: return "geoip";
    case GeoSource::kNone: return "none";
  }
  return "unknown";
}

std::string_view consent_name(request::GdprConsent consent) {
  switch (consent) {
    case request::GdprConsent::kAbsent: return "absent";
    case request::GdprConsent::kGranted: return "granted";
    case request::GdprConsent::kRefused: return "refused";
    case request::GdprConsent::kConsentString: return "consent_string";
  }
  return "unknown";
}

std::string placement_path(size_t index, std::string_view suffix) {
  std::string out = "placements[";
  char digits[20];
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), index).ptr);
  out.push_back(']');
  out.append(suffix);
  return out;
}

// Everything a rule's details read.
struct Context {
  const ExplainedRequest& input;
  const catalog::CatalogSnapshot& snapshot;
  const RequestFacts& facts;
};

void write_caps(JsonWriter& json, std::span<const CapCount> caps) {
  json.begin_array();
  for (const CapCount& count : caps) {
    json.begin_object();
    json.literal_key("impressions").number(uint64_t{count.cap.impressions});
    json.literal_key("windowSeconds").number(uint64_t{count.cap.window_s});
    // A saturated bucket reads as the most a bucket holds: it blocks whatever the cap.
    json.literal_key("counted").number(count.counted == caps::CapPartition::kSaturatedCount ? uint64_t{UINT16_MAX}
                                                                                             : count.counted);
    json.literal_key("exact").boolean(count.cap.impressions <= caps::CapPartition::kRecentImpressions);
    json.literal_key("holds").boolean(count.holds());
    json.end_object();
  }
  json.end_array();
}

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
  json.literal_key("requestPoints").begin_array();
  for (const request::GeoPoint& point : placement.points) {
    json.begin_object().literal_key("lat").number(point.lat_deg).literal_key("lon").number(point.lon_deg);
    json.literal_key("radiusKm").number(point.radius_km).end_object();
  }
  json.end_array().literal_key("adCircles").begin_array();
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

void write_rule(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                const Candidate& candidate, Rule rule, bool with_otherwise);

void write_rule_or_null(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                        const Candidate& candidate, std::optional<Rule> rule) {
  if (!rule) {
    json.null();
  } else {
    write_rule(json, context, placement, candidate, *rule, /*with_otherwise=*/false);
  }
}

void write_rule(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                const Candidate& candidate, Rule rule, bool with_otherwise) {
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  const catalog::Ad& ad = snapshot.ads()[candidate.ad_index];
  json.begin_object().literal_key("name").string(rule_name(rule));
  switch (rule) {
    case Rule::kFormat:
      json.literal_key("adFormat").string(catalog::format_name(ad.format));
      json.literal_key("served").string(format_filter_name(placement.format));
      json.literal_key("because").string(placement.format_from_version ? "version" : "format_filter");
      break;
    case Rule::kTierNotReached:
      json.literal_key("filledBy");
      if (placement.filled_by_tier) {
        json.string(snapshot.priorities()[*placement.filled_by_tier].key);
      } else {
        json.null();
      }
      break;
    case Rule::kFlightDates:
      json.literal_key("state").string(context.facts.now_s < ad.start_s ? "not_started" : "ended");
      json.literal_key("start").string(utc_text(ad.start_s));
      json.literal_key("end");
      if (ad.has_end()) {
        json.string(utc_text(ad.end_s));
      } else {
        json.null();
      }
      json.literal_key("now").string(utc_text(context.facts.now_s));
      break;
    case Rule::kAdvertiser:
      json.literal_key("requested");
      response::write_public_id(json, response::kAdvertiserPrefix, placement.advertiser_id.value_or(0));
      json.literal_key("adAdvertiser");
      response::write_public_id(json, response::kAdvertiserPrefix, snapshot.advertisers()[ad.advertiser_index].id);
      break;
    case Rule::kTemplate:
      json.literal_key("requested");
      response::write_public_id(json, response::kTemplatePrefix, placement.template_id.value_or(0));
      json.literal_key("adTemplate");
      response::write_public_id(json, response::kTemplatePrefix, snapshot.templates()[ad.template_index].id);
      break;
    case Rule::kAlreadyChosen: {
      const uint32_t by = candidate.chosen_by.value_or(0);
      json.literal_key("byPlacement").string(context.input.request.placements()[by].key);
      json.literal_key("byPlacementIndex").number(uint64_t{by});
      break;
    }
    case Rule::kGeo:
      json.literal_key("requestGeo");
      write_ids(json, placement.geo);
      json.literal_key("requestGeoSource").string(geo_source_name(placement.geo_source));
      json.literal_key("adGeo");
      write_ids(json, ad.targeting.geo);
      break;
    case Rule::kDestination:
      json.literal_key("requestDestination");
      write_ids(json, placement.destination);
      json.literal_key("destinationRead").boolean(context.facts.destination_read);
      json.literal_key("adDestination");
      write_ids(json, ad.targeting.destination);
      break;
    case Rule::kLocation:
      write_location_details(json, placement, ad);
      break;
    case Rule::kDaypart:
      write_daypart_details(json, context, ad);
      break;
    case Rule::kCustom:
      json.literal_key("expression").string(ad.targeting.custom ? std::string_view(ad.targeting.custom->source) : "");
      json.literal_key("value");
      if (candidate.verdict.custom_error) {
        json.null().literal_key("error").string(candidate.verdict.custom_text);
      } else {
        json.raw(candidate.verdict.custom_text).literal_key("error").null();
      }
      break;
    case Rule::kFrequencyCap:
      json.literal_key("caps");
      write_caps(json, candidate.verdict.caps);
      break;
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
      break;
    }
  }
  if (with_otherwise && (rule == Rule::kFormat || rule == Rule::kTierNotReached)) {
    json.literal_key("otherwise");
    write_rule_or_null(json, context, placement, candidate, candidate.otherwise);
  }
  json.end_object();
}

void write_frequency_caps(JsonWriter& json, const Context& context, const Candidate& candidate) {
  const catalog::Ad& ad = context.snapshot.ads()[candidate.ad_index];
  if (ad.frequency_caps.empty()) {
    json.null();
    return;
  }
  json.begin_object().literal_key("applied").boolean(candidate.verdict.caps_read);
  json.literal_key("why").string(caps_use_name(context.facts.caps)).literal_key("caps");
  if (candidate.verdict.caps_read) {
    write_caps(json, candidate.verdict.caps);
  } else {
    json.null();
  }
  json.end_object();
}

void write_candidate(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                     const Candidate& candidate) {
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  const catalog::Ad& ad = snapshot.ads()[candidate.ad_index];
  json.begin_object().literal_key("ad");
  response::write_public_id(json, response::kAdPrefix, ad.id);
  json.literal_key("advertiser");
  response::write_public_id(json, response::kAdvertiserPrefix, snapshot.advertisers()[ad.advertiser_index].id);
  json.literal_key("template");
  response::write_public_id(json, response::kTemplatePrefix, snapshot.templates()[ad.template_index].id);
  json.literal_key("format").string(catalog::format_name(ad.format));
  json.literal_key("priority").string(snapshot.priorities()[ad.tier_index].key);
  json.literal_key("weight").number(uint64_t{ad.weight});
  json.literal_key("outcome").string(candidate.served ? "served" : "excluded");
  json.literal_key("creative");
  if (candidate.served) {
    response::write_public_id(json, response::kCreativePrefix, ad.creatives[candidate.creative_index].id);
  } else {
    json.null();
  }
  json.literal_key("rule");
  if (candidate.rule) {
    write_rule(json, context, placement, candidate, *candidate.rule, /*with_otherwise=*/true);
  } else {
    json.null();
  }
  json.literal_key("frequencyCaps");
  write_frequency_caps(json, context, candidate);
  json.end_object();
}

void write_placement(JsonWriter& json, const Context& context, size_t index, const PlacementExplanation& placement) {
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  json.begin_object().literal_key("index").number(static_cast<uint64_t>(index));
  json.literal_key("placement").string(placement.key).literal_key("placementId");
  if (placement.placement_index) {
    response::write_public_id(json, response::kPlacementPrefix, snapshot.placements()[*placement.placement_index].id);
  } else {
    json.null();
  }
  json.literal_key("known").boolean(placement.placement_index.has_value());
  json.literal_key("count").number(uint64_t{placement.count});
  json.literal_key("filters").begin_object();
  json.literal_key("format").string(format_filter_name(placement.format));
  json.literal_key("formatFromVersion").boolean(placement.format_from_version);
  json.literal_key("advertiser");
  if (placement.advertiser_id) {
    response::write_public_id(json, response::kAdvertiserPrefix, *placement.advertiser_id);
  } else {
    json.null();
  }
  json.literal_key("template");
  if (placement.template_id) {
    response::write_public_id(json, response::kTemplatePrefix, *placement.template_id);
  } else {
    json.null();
  }
  json.end_object();
  json.literal_key("geo").begin_object().literal_key("source").string(geo_source_name(placement.geo_source));
  json.literal_key("ids");
  write_ids(json, placement.geo);
  json.end_object().literal_key("destination");
  write_ids(json, placement.destination);
  json.literal_key("location").begin_array();
  for (const request::GeoPoint& point : placement.points) {
    json.begin_object().literal_key("lat").number(point.lat_deg).literal_key("lon").number(point.lon_deg);
    json.literal_key("radiusKm").number(point.radius_km).end_object();
  }
  json.end_array();

  json.literal_key("tiers").begin_array();
  for (const TierDraw& draw : placement.tiers) {
    const catalog::Priority& tier = snapshot.priorities()[draw.tier_index];
    json.begin_object().literal_key("priority").string(tier.key).literal_key("weight").number(uint64_t{tier.weight});
    json.literal_key("reached").boolean(draw.reached).literal_key("asked").number(uint64_t{draw.asked});
    json.literal_key("eligibleWeight");
    if (draw.reached) {
      json.number(draw.eligible_weight);
    } else {
      json.null();
    }
    json.literal_key("drawn").begin_array();
    for (uint32_t ad_index : draw.drawn) write_ad_id(json, snapshot, ad_index);
    json.end_array().end_object();
  }
  json.end_array().literal_key("filledBy");
  if (placement.filled_by_tier) {
    json.string(snapshot.priorities()[*placement.filled_by_tier].key);
  } else {
    json.null();
  }
  json.literal_key("candidates").begin_array();
  for (const Candidate& candidate : placement.candidates) write_candidate(json, context, placement, candidate);
  json.end_array().end_object();
}

// The decision the request would get, and its warnings in the decision body's order
// (docs/decision-response.md "Warnings", same codes, messages and details).
void write_decision(JsonWriter& json, const Context& context) {
  const ExplainedRequest& input = context.input;
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  const std::span<const PlacementExplanation> placements = input.explanation.placements;
  std::vector<bool> fell_back(placements.size(), false);
  json.literal_key("decision").begin_object().literal_key("placements").begin_array();
  for (size_t i = 0; i < placements.size(); ++i) {
    const PlacementExplanation& placement = placements[i];
    json.begin_object().literal_key("placement").string(placement.key).literal_key("placementId");
    if (placement.placement_index) {
      response::write_public_id(json, response::kPlacementPrefix, snapshot.placements()[*placement.placement_index].id);
    } else {
      json.null();
    }
    json.literal_key("creatives").begin_array();
    for (const selection::Pick& pick : placement.picks) {
      const catalog::Ad& ad = snapshot.ads()[pick.ad_index];
      const response::CatalogText::CreativeText text = input.served.text.creative(pick.ad_index, pick.creative_index);
      const localization::LanguageChoice language =
          localization::choose_language(input.languages, text.languages, snapshot.default_language());
      if (language.outcome == localization::LanguageOutcome::kNoMatch) fell_back[i] = true;
      json.begin_object().literal_key("ad");
      response::write_public_id(json, response::kAdPrefix, ad.id);
      json.literal_key("creative");
      response::write_public_id(json, response::kCreativePrefix, ad.creatives[pick.creative_index].id);
      json.literal_key("placement");
      response::write_public_id(json, response::kPlacementPrefix, snapshot.placements()[*placement.placement_index].id);
      json.literal_key("advertiser");
      response::write_public_id(json, response::kAdvertiserPrefix, snapshot.advertisers()[ad.advertiser_index].id);
      json.literal_key("template");
      response::write_public_id(json, response::kTemplatePrefix, snapshot.templates()[ad.template_index].id);
      json.literal_key("priority").string(snapshot.priorities()[ad.tier_index].key);
      json.literal_key("format").string(catalog::format_name(ad.format));
      json.literal_key("delivery");
      const catalog::Creative& creative = ad.creatives[pick.creative_index];
      if (creative.video) {
        json.string(catalog::delivery_name(creative.video->delivery));
      } else {
        json.null();
      }
      json.literal_key("language").string(language.language).end_object();
    }
    json.end_array().end_object();
  }
  json.end_array().literal_key("warnings");

  const bool language_missing = !input.languages.present();
  bool any = !input.version.warning.empty() || language_missing;
  for (size_t i = 0; i < placements.size(); ++i) any |= !placements[i].placement_index || fell_back[i];
  if (!any) {
    json.null().end_object();
    return;
  }
  json.begin_array();
  if (!input.version.warning.empty()) json.raw(input.version.warning);
  if (language_missing) {
    json.begin_object().literal_key("code").number(http::error_code::kAcceptLanguageMissing);
    json.literal_key("message").string("Accept-Language is missing; content is in the default language");
    json.literal_key("details").begin_object().literal_key("header").string(localization::kAcceptLanguageHeader);
    json.literal_key("default_language").string(snapshot.default_language()).end_object().end_object();
  }
  for (size_t i = 0; i < placements.size(); ++i) {
    if (!placements[i].placement_index) {
      json.begin_object().literal_key("code").number(http::error_code::kUnknownPlacement);
      json.literal_key("message").string("unknown placement key; its decision has no creatives");
      json.literal_key("details").begin_object().literal_key("field").string(placement_path(i, ".key"));
      json.literal_key("placement").string(placements[i].key).end_object().end_object();
    } else if (fell_back[i]) {
      json.begin_object().literal_key("code").number(http::error_code::kLanguageUnavailable);
      json.literal_key("message").string("no content in the requested languages; the default language is used");
      json.literal_key("details").begin_object().literal_key("field").string(placement_path(i, ""));
      json.literal_key("default_language").string(snapshot.default_language()).end_object().end_object();
    }
  }
  json.end_array().end_object();
}

void write_facts(JsonWriter& json, const Context& context) {
  const ExplainedRequest& input = context.input;
  const RequestFacts& facts = context.facts;
  const request::User& user = input.request.user;
  const api_versions::VersionFeatures& features = input.version.features();
  json.literal_key("request").begin_object();

  json.literal_key("version").begin_object().literal_key("served").string(input.version.version());
  json.literal_key("phase").string(api_versions::phase_name(input.version.phase));
  json.literal_key("deprecated").boolean(input.version.deprecated);
  json.literal_key("features").begin_object();
  json.literal_key("formatFilter").boolean(features.format_filter);
  json.literal_key("video").boolean(features.video);
  json.literal_key("verification").boolean(features.verification);
  json.literal_key("destinationTargeting").boolean(features.destination_targeting);
  json.literal_key("templateInResponse").boolean(features.template_in_response);
  json.end_object().end_object();

  json.literal_key("now").string(utc_text(facts.now_s));
  json.literal_key("catalogRevision").string(context.snapshot.revision());
  json.literal_key("cores").begin_object().literal_key("received").number(uint64_t{facts.received_on_core});
  json.literal_key("decided").number(uint64_t{facts.decided_on_core}).literal_key("userOwner");
  if (facts.owner_core) {
    json.number(uint64_t{*facts.owner_core});
  } else {
    json.null();
  }
  json.end_object();

  json.literal_key("user").begin_object().literal_key("id");
  if (user.id) {
    json.string(*user.id);
  } else {
    json.null();
  }
  json.literal_key("ip");
  write_optional_text(json, user.ip.text);
  json.literal_key("timezone");
  write_optional_text(json, user.timezone_name);
  json.end_object();

  const geo::GeoIpRecord& record = facts.ip_record;
  json.literal_key("geoip").begin_object().literal_key("database").boolean(facts.geoip_loaded);
  json.literal_key("found").boolean(record.found).literal_key("country");
  write_optional_id(json, record.country_id);
  json.literal_key("subdivision");
  write_optional_id(json, record.subdivision_id);
  json.literal_key("city");
  write_optional_id(json, record.city_id);
  json.literal_key("inEuropeanUnion").boolean(record.in_european_union).literal_key("timeZone");
  write_optional_text(json, record.time_zone);
  json.end_object();

  json.literal_key("timeZone").begin_object().literal_key("name").string(facts.zone_name);
  json.literal_key("source").string(zone_source_name(facts.zone_source));
  json.literal_key("localTime").string(
      absl::FormatTime("%Y-%m-%dT%H:%M:%S%Ez", absl::FromUnixSeconds(facts.now_s), facts.user_zone));
  json.end_object();

  json.literal_key("gdpr").begin_object().literal_key("territory").boolean(facts.in_gdpr_territory);
  json.literal_key("because").begin_array();
  if (facts.gdpr_by_eu_flag) json.string("geoip.inEuropeanUnion");
  if (facts.gdpr_by_geoip_country) json.string("geoip.country");
  for (uint32_t i : facts.gdpr_by_placements) json.string(placement_path(i, ".targeting.geo"));
  json.end_array();
  json.literal_key("consent").string(consent_name(user.gdpr)).literal_key("consentStringPurpose1");
  if (user.gdpr == request::GdprConsent::kConsentString) {
    json.boolean(user.consent_string_purpose1);
  } else {
    json.null();
  }
  json.literal_key("userIdUsable").boolean(facts.user_id_usable).end_object();

  json.literal_key("frequencyCaps").begin_object().literal_key("applied").boolean(facts.caps == CapsUse::kApplied);
  json.literal_key("why").string(caps_use_name(facts.caps)).end_object();

  json.literal_key("acceptLanguage").begin_object().literal_key("present").boolean(input.languages.present());
  json.literal_key("preferred").begin_array();
  for (const localization::LanguageRange& range : input.languages.preferred()) json.string(range.range);
  json.end_array().literal_key("excluded").begin_array();
  for (const localization::LanguageRange& range : input.languages.excluded()) json.string(range.range);
  json.end_array().literal_key("defaultLanguage").string(context.snapshot.default_language()).end_object();

  json.end_object();
}

}  // namespace

void write_explanation(const ExplainedRequest& input, std::string& out) {
  const Context context{input, *input.served.snapshot, input.explanation.facts};
  JsonWriter json(out);
  json.begin_object().literal_key("success").boolean(true).literal_key("data").begin_object();
  write_decision(json, context);
  write_facts(json, context);
  json.literal_key("placements").begin_array();
  for (size_t i = 0; i < input.explanation.placements.size(); ++i) {
    write_placement(json, context, i, input.explanation.placements[i]);
  }
  json.end_array().end_object();
  json.literal_key("errors").null().literal_key("warnings").null().end_object();
}

}  // namespace decision::explain
