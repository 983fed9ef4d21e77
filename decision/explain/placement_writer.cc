// One placement of the explain body: its filters, its tiers and every candidate ad with
// the rule that excluded it (docs/explain.md "placements").
#include "decision/explain/explanation_parts.h"
#include "decision/response/public_ids.h"

namespace decision::explain {
namespace {

// What the request asked of the placement's ads.
void write_placement_filters(JsonWriter& json, const PlacementExplanation& placement) {
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
}

// Each priority tier: whether the walk reached it, and what it drew.
void write_tiers(JsonWriter& json, const catalog::CatalogSnapshot& snapshot, std::span<const TierDraw> tiers) {
  json.literal_key("tiers").begin_array();
  for (const TierDraw& draw : tiers) {
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
  json.end_array();
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

// An ad with a delivery goal: where the node stood at the slice's start and what this
// core may still serve of it (docs/pacing.md); null for an ad without a goal.
void write_pacing(JsonWriter& json, const Context& context, const Candidate& candidate) {
  const catalog::Ad& ad = context.snapshot.ads()[candidate.ad_index];
  if (!ad.delivery) {
    json.null();
    return;
  }
  json.begin_object().literal_key("pacing").string(catalog::pacing_name(ad.delivery->pacing));
  json.literal_key("goal").number(ad.delivery->impressions);
  const std::optional<pacing::CoreGoalView>& view = candidate.verdict.pacing;
  const bool allotted = view.has_value() && view->allotted;
  json.literal_key("allotted").boolean(allotted);
  if (allotted) {
    json.literal_key("status").string(pacing::goal_status_name(view->status));
    json.literal_key("delivered").number(view->delivered);
    json.literal_key("targetBySliceEnd").number(view->target);
    json.literal_key("throttle").number(view->throttle);
    json.literal_key("tokensLeftOnThisCore").number(view->tokens_left);
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
  json.literal_key("delivery");
  write_pacing(json, context, candidate);
  json.end_object();
}

}  // namespace

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
  write_placement_filters(json, placement);
  json.literal_key("geo").begin_object().literal_key("source").string(geo_source_name(placement.geo_source));
  json.literal_key("ids");
  write_ids(json, placement.geo);
  json.end_object().literal_key("destination");
  write_ids(json, placement.destination);
  json.literal_key("location");
  write_request_points(json, placement.points);
  write_tiers(json, context.snapshot, placement.tiers);
  json.literal_key("filledBy");
  if (placement.filled_by_tier) {
    json.string(snapshot.priorities()[*placement.filled_by_tier].key);
  } else {
    json.null();
  }
  json.literal_key("candidates").begin_array();
  for (const Candidate& candidate : placement.candidates) write_candidate(json, context, placement, candidate);
  json.end_array().end_object();
}

}  // namespace decision::explain
