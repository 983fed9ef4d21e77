// Ads: identity and references, weight, format, flight dates, frequency caps. Targeting
// and creatives have their own files.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "decision/catalog/load_context.h"
#include "decision/catalog/text_formats.h"
#include "runtime/absl_view.h"

namespace decision::catalog::detail {
namespace {

// id, advertiserId, templateId, priority: claimed or resolved to indexes.
void read_references(const ObjectReader& in, LoadContext& context, uint32_t index, Ad& ad) {
  if (const std::optional<Id> id = in.id("id", kRequired)) {
    claim_id(context.ad_by_id, *id, index, in.path_of("id"), "ad", context.errors);
    ad.id = *id;
  }
  if (const std::optional<Id> id = in.id("advertiserId", kRequired)) {
    const Claim* c = resolve_id(context.advertiser_by_id, *id, in.path_of("advertiserId"),
                                "advertiser", context.errors);
    if (c) ad.advertiser_index = c->index;
  }
  if (const std::optional<Id> id = in.id("templateId", kRequired)) {
    const Claim* c = resolve_id(context.template_by_id, *id, in.path_of("templateId"), "template",
                                context.errors);
    if (c) ad.template_index = c->index;
  }
  if (const std::optional<std::string_view> key = in.text("priority", kRequired)) {
    const auto it = context.priority_by_key.find(runtime::av(*key));
    if (it == context.priority_by_key.end()) {
      in.error("priority", absl::StrCat("unknown priority \"", runtime::av(*key), "\""));
    } else {
      ad.tier_index = it->second.index;
    }
  }
}

void read_placement_ids(const ObjectReader& in, LoadContext& context, Ad& ad) {
  const std::optional<array> ids = in.array_of("placementIds", kRequired);
  if (!ids) return;
  const std::string path = in.path_of("placementIds");
  if (ids->size() == 0 || ids->size() > kMaxPlacementsPerAd) {
    context.errors.add(path, absl::StrCat("must hold 1..", kMaxPlacementsPerAd, " placement ids"));
    return;
  }
  size_t i = 0;
  for (element item : *ids) {
    const std::string item_at = item_path(path, i++);
    const std::optional<Id> id = read_id(item, item_at, context.errors);
    if (!id) continue;
    const Claim* c = resolve_id(context.placement_by_id, *id, item_at, "placement", context.errors);
    if (!c) continue;
    if (std::find(ad.placement_indexes.begin(), ad.placement_indexes.end(), c->index) !=
        ad.placement_indexes.end()) {
      context.errors.add(item_at, absl::StrCat("duplicate placement id ", *id));
      continue;
    }
    ad.placement_indexes.push_back(c->index);
  }
}

void read_format_and_style(const ObjectReader& in, LoadContext& context, Ad& ad) {
  if (const std::optional<std::string_view> format = in.string("format", kOptional)) {
    if (*format == "video") {
      ad.format = Format::kVideo;
    } else if (*format != "native") {
      in.error("format", "must be native or video");
    }
  }
  const std::optional<std::string_view> style = in.text("style", kOptional);
  if (style) {
    ad.style = std::string(*style);
  } else if (ad.template_index < context.data.templates.size()) {
    ad.style = context.data.templates[ad.template_index].style;
  }
}

// start is required (RFC 3339 with an offset); end is optional, null meaning open-ended.
void read_flight(const ObjectReader& in, Ad& ad) {
  constexpr const char* kShape =
      "must be an RFC 3339 time with an offset, such as 2026-01-01T00:00:00Z";
  std::optional<int64_t> start;
  if (const std::optional<std::string_view> text = in.text("start", kRequired)) {
    start = parse_rfc3339_s(*text);
    if (!start) in.error("start", kShape);
  }
  if (const std::optional<std::string_view> text = in.text("end", kOptional)) {
    const std::optional<int64_t> end = parse_rfc3339_s(*text);
    if (!end) {
      in.error("end", kShape);
    } else if (start && *end <= *start) {
      in.error("end", "must be after start");
    } else {
      ad.end_s = *end;
    }
  }
  ad.start_s = start.value_or(0);
}

void read_frequency_caps(const ObjectReader& in, Ad& ad) {
  const std::optional<size_t> count =
      for_each_object(in, "frequencyCaps", kOptional, [&](const ObjectReader& cap, size_t) {
        const std::optional<uint64_t> impressions =
            cap.integer("impressions", kRequired, 1, kMaxCapImpressions);
        const std::optional<uint64_t> window =
            cap.integer("windowSeconds", kRequired, 1, kMaxCapWindowSeconds);
        if (impressions && window) {
          ad.frequency_caps.push_back(
              {static_cast<uint32_t>(*impressions), static_cast<uint32_t>(*window)});
        }
      });
  if (count && *count > kMaxFrequencyCapsPerAd) {
    in.error("frequencyCaps", absl::StrCat("must hold at most ", kMaxFrequencyCapsPerAd, " caps"));
  }
}

// "delivery": {"impressions": N, "pacing": "even" | "frontloaded" | "asap"} (pacing
// defaults to even). A goal is spread over the flight, so an open-ended ad cannot have one.
void read_delivery(const ObjectReader& in, LoadContext& context, Ad& ad) {
  const std::optional<object> delivery = in.object_of("delivery", kOptional);
  if (!delivery) return;
  const ObjectReader goal(*delivery, in.path_of("delivery"), context.errors);
  const std::optional<uint64_t> impressions = goal.integer("impressions", kRequired, 1, kMaxGoalImpressions);
  Pacing pacing = Pacing::kEven;
  if (const std::optional<std::string_view> name = goal.string("pacing", kOptional)) {
    if (*name == "frontloaded") {
      pacing = Pacing::kFrontloaded;
    } else if (*name == "asap") {
      pacing = Pacing::kAsap;
    } else if (*name != "even") {
      goal.error("pacing", "must be even, frontloaded or asap");
    }
  }
  if (!in.has("end")) in.error("delivery", "a delivery goal needs the ad's end: it is spread over start..end");
  if (impressions) ad.delivery = DeliveryGoal{*impressions, pacing};
}

void read_ad(const ObjectReader& in, LoadContext& context, uint32_t index, Ad& ad) {
  read_references(in, context, index, ad);
  read_placement_ids(in, context, ad);
  if (const std::optional<uint64_t> weight = in.integer("weight", kRequired, 1, kMaxAdWeight)) {
    ad.weight = static_cast<uint32_t>(*weight);
  }
  read_format_and_style(in, context, ad);
  read_flight(in, ad);
  read_frequency_caps(in, ad);
  read_delivery(in, context, ad);
  if (const std::optional<object> targeting = in.object_of("targeting", kOptional)) {
    read_targeting(ObjectReader(*targeting, in.path_of("targeting"), context.errors), context,
                   ad.targeting);
  }
  read_creatives(in, ad.format, context, ad.creatives);
}

}  // namespace

void read_ads(const ObjectReader& root, LoadContext& context) {
  for_each_object(root, "ads", Presence::kRequired, [&](const ObjectReader& in, size_t) {
    Ad ad;
    const auto index = static_cast<uint32_t>(context.data.ads.size());
    read_ad(in, context, index, ad);
    context.data.ads.push_back(std::move(ad));
  });
}

}  // namespace decision::catalog::detail
