#include "decision/response/response_writer.h"

#include <charconv>

#include "decision/request/decision_request.h"
#include "decision/localization/language_match.h"
#include "decision/response/public_ids.h"
#include "decision/response/verification_json.h"
#include "http/error_codes.h"

namespace decision::response {

namespace {
// "placements[<i>]" with an optional suffix, as a string value.
void write_placement_path(http::JsonWriter& json, size_t index, std::string_view suffix) {
  std::string& out = json.begin_verbatim_string();
  out.append("placements[");
  char digits[20];
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), index).ptr);
  out.push_back(']');
  out.append(suffix);
  json.end_verbatim_string();
}

void write_language_missing(http::JsonWriter& json, std::string_view default_language) {
  json.begin_object().literal_key("code").number(http::error_code::kAcceptLanguageMissing);
  json.literal_key("message").string("Accept-Language is missing; content is in the default language");
  json.literal_key("details").begin_object().literal_key("header").string(localization::kAcceptLanguageHeader);
  json.literal_key("default_language").string(default_language).end_object().end_object();
}

// details names where the agent was read: {"field": "device.ua"} or {"header": "User-Agent"}.
void write_declared_robot(http::JsonWriter& json, RobotAgent agent) {
  json.begin_object().literal_key("code").number(http::error_code::kDeclaredRobot);
  json.literal_key("message").string("request from a declared robot; no creatives are served");
  json.literal_key("details").begin_object();
  if (agent == RobotAgent::kDeviceUa) {
    json.literal_key("field").string("device.ua");
  } else {
    json.literal_key("header").string("User-Agent");
  }
  json.end_object().end_object();
}

void write_unknown_placement(http::JsonWriter& json, size_t index, std::string_view key) {
  json.begin_object().literal_key("code").number(http::error_code::kUnknownPlacement);
  json.literal_key("message").string("unknown placement key; its decision has no creatives");
  json.literal_key("details").begin_object().literal_key("field");
  write_placement_path(json, index, ".key");
  json.literal_key("placement").string(key).end_object().end_object();
}

void write_language_unavailable(http::JsonWriter& json, size_t index,
                                std::string_view default_language) {
  json.begin_object().literal_key("code").number(http::error_code::kLanguageUnavailable);
  json.literal_key("message").string("no content in the requested languages; the default language is used");
  json.literal_key("details").begin_object().literal_key("field");
  write_placement_path(json, index, "");
  json.literal_key("default_language").string(default_language).end_object().end_object();
}
}  // namespace

bool ResponseWriter::write_creative(http::JsonWriter& json, const ResponseInput& input, uint32_t placement_index,
                                    const selection::Pick& pick, bool* fell_back) {
  const catalog::CatalogSnapshot& snapshot = input.snapshot;
  const catalog::Placement& placement = snapshot.placements()[placement_index];
  const catalog::Ad& ad = snapshot.ads()[pick.ad_index];
  const catalog::Creative& creative = ad.creatives[pick.creative_index];
  const catalog::Template& template_record = snapshot.templates()[ad.template_index];
  const CatalogText::CreativeText text = input.text.creative(pick.ad_index, pick.creative_index);

  const localization::LanguageChoice language =
      localization::choose_language(input.languages, text.languages, snapshot.default_language());
  if (language.outcome == localization::LanguageOutcome::kNoMatch) *fell_back = true;
  const size_t language_index =
      language.index >= 0 ? static_cast<size_t>(language.index) : creative.default_contents;

  json.begin_object();
  json.literal_key("contents").raw(text.contents_json[language_index]);
  json.literal_key("advertiser").raw(input.text.advertiser_json(ad.advertiser_index));
  if (input.features.template_in_response) {
    json.literal_key("template").begin_object().literal_key("key").string(template_record.key);
    json.literal_key("style").string(template_record.style).end_object();
  }
  // Video ads are candidates only under versions that serve them (the endpoint's format
  // filter), so a video creative here always gets its video members.
  const catalog::Video* video = input.features.video && creative.video ? &*creative.video : nullptr;
  const bool in_document = video != nullptr && video->delivery != catalog::VideoDelivery::kJson;
  const TrackingShape shape = video == nullptr ? TrackingShape::kNative
                              : in_document    ? TrackingShape::kVideoDocument
                                               : TrackingShape::kVideoJson;
  json.literal_key("tracking");
  if (!links_.write(json, input.tracking, ad, creative, placement, shape)) return false;
  json.literal_key("metadata").begin_object();
  json.literal_key("adId");
  write_public_id(json, kAdPrefix, ad.id);
  json.literal_key("creativeId");
  write_public_id(json, kCreativePrefix, creative.id);
  json.literal_key("placementId");
  write_public_id(json, kPlacementPrefix, placement.id);
  json.literal_key("templateId");
  write_public_id(json, kTemplatePrefix, template_record.id);
  json.literal_key("priority").string(snapshot.priorities()[ad.tier_index].key);
  json.literal_key("style").string(ad.style);
  if (video != nullptr) VideoFields::write_metadata(json, *video);
  json.end_object();
  if (input.features.verification) {
    // Spec "Presence rules": in the VAST deliveries they are in the document instead.
    json.literal_key("verificationScriptResources");
    write_verification_resources(json, in_document ? std::span<const catalog::VerificationItem>()
                                                   : std::span<const catalog::VerificationItem>(creative.verification));
  }
  if (video != nullptr) {
    const video::VastAd served{snapshot, pick.ad_index, pick.creative_index, placement_index,
                               static_cast<uint32_t>(language_index)};
    if (!video_.write_delivery(json, served, input.tracking)) return false;
  }
  json.end_object();
  return true;
}

bool ResponseWriter::write(const ResponseInput& input, std::string& out, WriteOutcome& outcome) {
  outcome = {};
  http::JsonWriter json(out);
  json.begin_object().literal_key("success").boolean(true).literal_key("data").begin_array();
  // Placements whose creatives fell back to the default language (warning 20004).
  uint32_t fell_back_mask = 0;
  static_assert(sizeof(fell_back_mask) * 8 >= request::kMaxPlacements);
  for (size_t i = 0; i < input.placements.size(); ++i) {
    const PlacementDecision& decision = input.placements[i];
    json.begin_object().literal_key("placement").string(decision.key).literal_key("creatives").begin_array();
    if (decision.placement_index) {
      bool fell_back = false;
      for (const selection::Pick& pick : decision.picks) {
        if (!write_creative(json, input, *decision.placement_index, pick, &fell_back)) return false;
      }
      if (fell_back) {
        fell_back_mask |= 1u << i;
        ++outcome.language_fallbacks;
      }
    }
    json.end_array().end_object();
  }
  json.end_array().literal_key("errors").null().literal_key("warnings");

  const bool language_missing = !input.languages.present();
  bool any_unknown = false;
  for (const PlacementDecision& decision : input.placements) any_unknown |= !decision.placement_index;
  const bool robot = input.robot != RobotAgent::kNone;
  if (input.version_warning.empty() && !language_missing && !robot && !any_unknown && fell_back_mask == 0) {
    json.null().end_object();
    return true;
  }
  json.begin_array();
  if (!input.version_warning.empty()) json.raw(input.version_warning);
  if (language_missing) write_language_missing(json, input.snapshot.default_language());
  if (robot) write_declared_robot(json, input.robot);
  for (size_t i = 0; i < input.placements.size(); ++i) {
    if (!input.placements[i].placement_index) {
      write_unknown_placement(json, i, input.placements[i].key);
    } else if (fell_back_mask & (1u << i)) {
      write_language_unavailable(json, i, input.snapshot.default_language());
    }
  }
  json.end_array().end_object();
  return true;
}

}  // namespace decision::response
