// The decision part of the explain body: what the decision would serve, without tracking
// URLs, and the warnings its body would carry (docs/explain.md "decision").
#include <vector>

#include "decision/explain/explanation_parts.h"
#include "decision/localization/language_match.h"
#include "decision/response/public_ids.h"
#include "decision/response/response_writer.h"
#include "http/error_codes.h"

namespace decision::explain {
namespace {

// The creatives served for one known placement; whether any fell back to the default
// language (warning 20004).
bool write_creatives(JsonWriter& json, const Context& context, const PlacementExplanation& placement) {
  const ExplainedRequest& input = context.input;
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  bool fell_back = false;
  json.literal_key("creatives").begin_array();
  for (const selection::Pick& pick : placement.picks) {
    const catalog::Ad& ad = snapshot.ads()[pick.ad_index];
    const response::CatalogText::CreativeText text = input.served.text.creative(pick.ad_index, pick.creative_index);
    const localization::LanguageChoice language =
        localization::choose_language(input.languages, text.languages, snapshot.default_language());
    if (language.outcome == localization::LanguageOutcome::kNoMatch) fell_back = true;
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
  json.end_array();
  return fell_back;
}

// The warnings in the decision body's order: version, Accept-Language, then per placement.
void write_warnings(JsonWriter& json, const Context& context, const std::vector<bool>& fell_back) {
  const ExplainedRequest& input = context.input;
  const catalog::CatalogSnapshot& snapshot = context.snapshot;
  const std::span<const PlacementExplanation> placements = input.explanation.placements;
  const bool language_missing = !input.languages.present();
  bool any = !input.version.warning.empty() || language_missing;
  for (size_t i = 0; i < placements.size(); ++i) any |= !placements[i].placement_index || fell_back[i];
  if (!any) {
    json.null();
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
  json.end_array();
}

}  // namespace

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
    fell_back[i] = write_creatives(json, context, placement);
    json.end_object();
  }
  json.end_array().literal_key("warnings");
  write_warnings(json, context, fell_back);
  json.end_object();
}

}  // namespace decision::explain
