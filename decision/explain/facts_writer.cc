// The request part of the explain body: the facts the rules read (docs/explain.md
// "request").
#include "absl/time/time.h"
#include "api_versions/phase.h"
#include "decision/explain/explanation_parts.h"

namespace decision::explain {
namespace {

// The version served and the features it turns on.
void write_version_facts(JsonWriter& json, const ExplainedRequest& input) {
  const api_versions::VersionFeatures& features = input.version.features();
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
}

// When, against which catalog, and on which cores.
void write_serving_facts(JsonWriter& json, const Context& context) {
  const RequestFacts& facts = context.facts;
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
}

// Who the user is and where: the request's user, its GeoIP record and time zone.
void write_user_facts(JsonWriter& json, const Context& context) {
  const RequestFacts& facts = context.facts;
  const request::User& user = context.input.request.user;
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
}

// Whether GDPR applies and what the user consented to; whether caps are read.
void write_consent_facts(JsonWriter& json, const Context& context) {
  const RequestFacts& facts = context.facts;
  const request::User& user = context.input.request.user;
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
}

void write_language_facts(JsonWriter& json, const Context& context) {
  const ExplainedRequest& input = context.input;
  json.literal_key("acceptLanguage").begin_object().literal_key("present").boolean(input.languages.present());
  json.literal_key("preferred").begin_array();
  for (const localization::LanguageRange& range : input.languages.preferred()) json.string(range.range);
  json.end_array().literal_key("excluded").begin_array();
  for (const localization::LanguageRange& range : input.languages.excluded()) json.string(range.range);
  json.end_array().literal_key("defaultLanguage").string(context.snapshot.default_language()).end_object();
}

}  // namespace

void write_facts(JsonWriter& json, const Context& context) {
  json.literal_key("request").begin_object();
  write_version_facts(json, context.input);
  write_serving_facts(json, context);
  write_user_facts(json, context);
  write_consent_facts(json, context);
  write_language_facts(json, context);
  json.end_object();
}

}  // namespace decision::explain
