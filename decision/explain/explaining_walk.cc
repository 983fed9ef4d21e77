#include "decision/explain/explaining_walk.h"

#include <algorithm>

#include "cel/limits.h"
#include "cel/value_json.h"
#include "decision/endpoint/served_formats.h"
#include "decision/targeting/rules/gdpr_territory.h"

namespace decision::explain {

namespace {

bool serves_format(catalog::FormatFilter filter, catalog::Format format) {
  switch (filter) {
    case catalog::FormatFilter::kNative: return format == catalog::Format::kNative;
    case catalog::FormatFilter::kVideo: return format == catalog::Format::kVideo;
    case catalog::FormatFilter::kAny: return true;
  }
  return false;
}

Rule rule_of(targeting::TargetingCheck check) {
  switch (check) {
    case targeting::TargetingCheck::kGeo: return Rule::kGeo;
    case targeting::TargetingCheck::kDestination: return Rule::kDestination;
    case targeting::TargetingCheck::kLocation: return Rule::kLocation;
    case targeting::TargetingCheck::kDaypart: return Rule::kDaypart;
    case targeting::TargetingCheck::kCustom: return Rule::kCustom;
    case targeting::TargetingCheck::kHolds: break;
  }
  return Rule::kCustom;  // unreachable: kHolds is never asked for
}

CapsUse caps_use(const request::User& user, bool user_id_usable) {
  if (!user.id) return CapsUse::kNoUserId;
  if (user_id_usable) return CapsUse::kApplied;
  if (user.gdpr == request::GdprConsent::kRefused) return CapsUse::kConsentRefused;
  if (user.gdpr == request::GdprConsent::kConsentString) return CapsUse::kConsentStringRefuses;
  return CapsUse::kGdprWithoutConsent;
}

}  // namespace

ExplainingWalk::ExplainingWalk(targeting::GeoSources geo, uint64_t seed)
    : geo_(geo),
      seed_(seed),
      targeting_(std::make_unique<targeting::TargetingRule>(geo)),
      random_(seed, kRandomStream) {}

void ExplainingWalk::set_geoip(const geo::GeoIpDatabase* geoip) {
  geo_.geoip = geoip;
  // A new rule, and with it an empty record cache: a cache knows its database by address,
  // which a database opened after the old one was freed may share.
  targeting_ = std::make_unique<targeting::TargetingRule>(geo_);
}

void ExplainingWalk::begin_request(const WalkInput& input) {
  targeting_->begin_request(input.request, input.now_s, input.features.destination_targeting,
                            input.served.custom_programs);
}

void ExplainingWalk::explain(const WalkInput& input, const caps::CapReader* caps, std::optional<uint64_t> user_key,
                             Explanation& out) {
  input_ = &input;
  snapshot_ = input.served.snapshot.get();
  caps_ = user_key ? caps : nullptr;
  user_key_ = user_key.value_or(0);
  note_facts(input, out.facts);
  // Seeded afresh: an explain never depends on the explains before it.
  random_ = selection::CoreRandom(seed_, kRandomStream);
  chosen_.clear();
  chosen_by_.clear();
  const auto placements = input.request.placements();
  out.placements.assign(placements.size(), PlacementExplanation{});
  for (uint32_t i = 0; i < placements.size(); ++i) explain_placement(input, i, out.placements[i]);
  input_ = nullptr;
  snapshot_ = nullptr;
  placement_ = nullptr;
}

void ExplainingWalk::note_facts(const WalkInput& input, RequestFacts& facts) const {
  const request::DecisionRequest& request = input.request;
  facts = RequestFacts{};
  facts.now_s = input.now_s;
  facts.geoip_loaded = geo_.geoip != nullptr;
  facts.ip_record = targeting_->ip_record();
  facts.user_zone = targeting_->user_zone();
  facts.zone_source = targeting_->user_zone_source();
  switch (facts.zone_source) {
    case targeting::ZoneSource::kUserTimezone: facts.zone_name = request.user.timezone_name; break;
    case targeting::ZoneSource::kGeoIp: facts.zone_name = facts.ip_record.time_zone; break;
    case targeting::ZoneSource::kUtc: facts.zone_name = "UTC"; break;
  }
  facts.in_gdpr_territory = targeting_->in_gdpr_territory();
  facts.gdpr_by_eu_flag = facts.ip_record.in_european_union;
  facts.gdpr_by_geoip_country = targeting::is_gdpr_country(facts.ip_record.country_id);
  const auto placements = request.placements();
  for (uint32_t i = 0; i < placements.size(); ++i) {
    if (targeting_->names_gdpr_country(placements[i].targeting.geo())) facts.gdpr_by_placements.push_back(i);
  }
  facts.user_id_usable = targeting_->user_id_usable();
  facts.caps = caps_use(request.user, facts.user_id_usable);
  facts.destination_read = input.features.destination_targeting;
}

void ExplainingWalk::explain_placement(const WalkInput& input, uint32_t request_index, PlacementExplanation& out) {
  const request::PlacementRequest& asked = input.request.placements()[request_index];
  const catalog::CatalogIndex& index = snapshot_->index();
  out.key = asked.key;
  out.count = asked.count;
  out.format = endpoint::formats_to_serve(input.features, asked);
  out.format_from_version = !input.features.video;
  out.advertiser_id = asked.advertiser_id;
  out.template_id = asked.template_id;
  out.placement_index = index.placement_index(asked.key);
  if (!out.placement_index) return;
  const uint32_t placement_index = *out.placement_index;

  placement_ = &asked;
  targeting_->begin_placement(asked);
  verdict_slot_.clear();
  verdicts_.clear();
  const std::span<const uint64_t> geo = targeting_->placement_geo();
  out.geo.assign(geo.begin(), geo.end());
  out.geo_source = asked.targeting.geo_count > 0 ? GeoSource::kRequest
                   : geo.empty()                 ? GeoSource::kNone
                                                 : GeoSource::kGeoIp;
  const std::span<const uint64_t> destination = targeting_->placement_destination();
  out.destination.assign(destination.begin(), destination.end());
  const std::span<const request::GeoPoint> points = asked.targeting.location();
  out.points.assign(points.begin(), points.end());

  // The decision itself, by the selector's own code.
  selection::PlacementFilter filter;
  filter.format = out.format;
  filter.advertiser_id = asked.advertiser_id;
  filter.template_id = asked.template_id;
  out.picks.assign(asked.count, selection::Pick{});
  const uint32_t picked = selector_.select(*snapshot_, placement_index, filter, input.now_s, &noting_, chosen_,
                                           std::span<selection::Pick>(out.picks));
  out.picks.resize(picked);

  note_tiers(placement_index, asked.count, out);
  list_candidates(placement_index, out);
  for (const selection::Pick& pick : out.picks) chosen_by_.emplace(pick.ad_index, request_index);
}

// The tiers as the selector met them: it stops at the first tier it reaches with the
// placement full; picks come out heaviest tier first.
void ExplainingWalk::note_tiers(uint32_t placement_index, uint32_t count, PlacementExplanation& out) {
  uint32_t picked_before = 0;
  size_t next_pick = 0;
  for (const catalog::TierCandidates& tier : snapshot_->index().candidates(placement_index, out.format)) {
    TierDraw& draw = out.tiers.emplace_back();
    draw.tier_index = tier.tier_index;
    draw.reached = picked_before < count;
    if (!draw.reached) continue;
    draw.asked = count - picked_before;
    for (size_t k = 0; k < tier.ad_indexes.size(); ++k) {
      if (!first_own_rule(tier.ad_indexes[k], verdict(tier.ad_indexes[k]))) draw.eligible_weight += tier.weights[k];
    }
    while (next_pick < out.picks.size() &&
           snapshot_->ads()[out.picks[next_pick].ad_index].tier_index == tier.tier_index) {
      draw.drawn.push_back(out.picks[next_pick++].ad_index);
      ++picked_before;
    }
    if (picked_before == count) out.filled_by_tier = tier.tier_index;
  }
}

// Every candidate of the placement, both formats, in tier order, with its first rule.
void ExplainingWalk::list_candidates(uint32_t placement_index, PlacementExplanation& out) {
  const catalog::CatalogIndex& index = snapshot_->index();
  for (const catalog::TierCandidates& tier : index.candidates(placement_index, catalog::FormatFilter::kAny)) {
    const auto draw = std::find_if(out.tiers.begin(), out.tiers.end(),
                                   [&](const TierDraw& d) { return d.tier_index == tier.tier_index; });
    for (uint32_t ad_index : tier.ad_indexes) {
      const catalog::Ad& ad = snapshot_->ads()[ad_index];
      Candidate& candidate = out.candidates.emplace_back();
      candidate.ad_index = ad_index;
      candidate.verdict = verdict(ad_index);
      if (const auto chooser = chosen_by_.find(ad_index); chooser != chosen_by_.end()) {
        candidate.chosen_by = chooser->second;
      }
      const std::optional<Rule> own = first_own_rule(ad_index, candidate.verdict);
      if (!serves_format(out.format, ad.format)) {
        candidate.rule = Rule::kFormat;
        candidate.otherwise = own;
        continue;
      }
      if (draw == out.tiers.end() || !draw->reached) {
        candidate.rule = Rule::kTierNotReached;
        candidate.otherwise = own;
        continue;
      }
      const auto pick = std::find_if(out.picks.begin(), out.picks.end(),
                                     [&](const selection::Pick& p) { return p.ad_index == ad_index; });
      if (pick != out.picks.end()) {
        candidate.served = true;
        candidate.creative_index = pick->creative_index;
        continue;
      }
      candidate.rule = own.value_or(Rule::kNotDrawn);
    }
  }
}

std::optional<Rule> ExplainingWalk::first_own_rule(uint32_t ad_index, const AdVerdict& verdict) const {
  if (verdict.failed && *verdict.failed <= Rule::kTemplate) return verdict.failed;
  if (chosen_by_.contains(ad_index)) return Rule::kAlreadyChosen;
  return verdict.failed;
}

const AdVerdict& ExplainingWalk::verdict(uint32_t ad_index) {
  const auto [slot, added] = verdict_slot_.try_emplace(ad_index, static_cast<uint32_t>(verdicts_.size()));
  if (added) work_out(ad_index, verdicts_.emplace_back());
  return verdicts_[slot->second];
}

void ExplainingWalk::work_out(uint32_t ad_index, AdVerdict& out) {
  const catalog::Ad& ad = snapshot_->ads()[ad_index];
  const int64_t now_s = input_->now_s;
  // Counted for every capped ad when caps apply, so a developer sees the counts even of
  // an ad that something else kept out.
  if (caps_ != nullptr && !ad.frequency_caps.empty()) {
    std::vector<uint64_t> counts(ad.frequency_caps.size());
    caps_->count(user_key_, ad.id, ad.frequency_caps, now_s, counts);
    out.caps_read = true;
    const uint32_t pending = caps_->pending(user_key_, ad.id, now_s);
    for (size_t i = 0; i < counts.size(); ++i) out.caps.push_back({ad.frequency_caps[i], counts[i], pending});
  }
  // AdSelector::passes, in its order.
  if (!ad.active_at(now_s)) {
    out.failed = Rule::kFlightDates;
    return;
  }
  if (placement_->advertiser_id && snapshot_->advertisers()[ad.advertiser_index].id != *placement_->advertiser_id) {
    out.failed = Rule::kAdvertiser;
    return;
  }
  if (placement_->template_id && snapshot_->templates()[ad.template_index].id != *placement_->template_id) {
    out.failed = Rule::kTemplate;
    return;
  }
  const targeting::TargetingCheck check = targeting_->first_failing(ad, ad_index);
  if (check != targeting::TargetingCheck::kHolds) {
    out.failed = rule_of(check);
    if (check != targeting::TargetingCheck::kCustom) return;
    const targeting::CustomEvaluation evaluation = targeting_->evaluate_custom(ad_index);
    out.custom_error = true;
    if (evaluation.status == targeting::CustomEvaluation::Status::kUncompiled) {
      out.custom_text = "the expression does not compile: the ad is never eligible";
    } else if (evaluation.value.is_error()) {
      out.custom_text = evaluation.program->error_text(evaluation.value);
    } else {
      out.custom_error = false;
      cel::Arena arena(cel::kDefaultArenaBytesMax);
      cel::append_json(evaluation.value, arena, out.custom_text);
    }
    return;
  }
  // capping::FrequencyCapRule: a cap that has counted its impressions blocks.
  if (std::any_of(out.caps.begin(), out.caps.end(), [](const CapCount& c) { return !c.holds(); })) {
    out.failed = Rule::kFrequencyCap;
    return;
  }
  // pacing::PacingRule: without a token left (or any allotment) the ad is kept out; a
  // throttle below 1 lets it through by chance, which the walk reports and does not draw.
  if (ad.delivery && pacing_ != nullptr) {
    const std::optional<pacing::CoreGoalView> view = pacing_->view(ad.id);
    if (view) out.pacing = *view;
    if (!view || view->tokens_left == 0) out.failed = Rule::kPacing;
  }
}

bool ExplainingWalk::NotingRule::eligible(const catalog::Ad&, uint32_t ad_index) {
  // The selector has checked flight dates, filters and the chosen set already.
  return !walk_.verdict(ad_index).failed.has_value();
}

std::string_view rule_name(Rule rule) {
  switch (rule) {
    case Rule::kFormat: return "format";
    case Rule::kTierNotReached: return "tier_not_reached";
    case Rule::kFlightDates: return "flight_dates";
    case Rule::kAdvertiser: return "advertiser";
    case Rule::kTemplate: return "template";
    case Rule::kAlreadyChosen: return "already_chosen";
    case Rule::kGeo: return "geo";
    case Rule::kDestination: return "destination";
    case Rule::kLocation: return "location";
    case Rule::kDaypart: return "daypart";
    case Rule::kCustom: return "custom";
    case Rule::kFrequencyCap: return "frequency_cap";
    case Rule::kPacing: return "pacing";
    case Rule::kNotDrawn: return "not_drawn";
  }
  return "unknown";
}

std::string_view caps_use_name(CapsUse use) {
  switch (use) {
    case CapsUse::kApplied: return "user_id_usable";
    case CapsUse::kNoUserId: return "no_user_id";
    case CapsUse::kGdprWithoutConsent: return "gdpr_without_consent";
    case CapsUse::kConsentRefused: return "consent_refused";
    case CapsUse::kConsentStringRefuses: return "consent_string_refuses_purpose_1";
  }
  return "unknown";
}

}  // namespace decision::explain
