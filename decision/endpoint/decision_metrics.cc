#include "decision/endpoint/decision_metrics.h"

namespace decision::endpoint {

namespace {
using DC = DecisionCounters;
using runtime::counter;

constexpr runtime::Metric<DC> kDecisionFamilies[] = {
    counter("decisiond_decisions_total", "Decisions served (200), by core.", &DC::decisions),
    counter("decisiond_decision_creatives_total", "Creatives in served decisions, by core.", &DC::creatives),
    counter("decisiond_decision_empty_placements_total", "Known placements answered with no creative, by core.",
            &DC::empty_placements),
    counter("decisiond_decision_unknown_placements_total", "Unknown placement keys (warning 20003), by core.",
            &DC::unknown_placements),
    counter("decisiond_decision_language_fallbacks_total",
            "Placements served in the default language for want of a requested one (warning 20004), by core.",
            &DC::language_fallbacks),
    counter("decisiond_decision_language_missing_total", "Decisions without Accept-Language (warning 20001), by core.",
            &DC::language_missing),
    counter("decisiond_decision_rejected_versions_total",
            "Decision requests refused for their version header (400 10042, 410 10043), by core.",
            &DC::rejected_versions),
    counter("decisiond_decision_wrong_media_type_total", "Decision requests refused with 415, by core.",
            &DC::wrong_media_type),
    counter("decisiond_decision_invalid_bodies_total", "Decision bodies refused (400 10001, 422), by core.",
            &DC::invalid_bodies),
    counter("decisiond_decision_token_failures_total",
            "Decisions answered 500 because a tracking token could not be sealed, by core.", &DC::token_failures),
    counter("decisiond_decision_custom_rule_evaluations_total",
            "CEL targeting rules evaluated (once per program and placement, however many ads share it), by core.",
            &DC::custom_evaluations),
    counter("decisiond_decision_custom_rule_errors_total",
            "CEL targeting rule evaluations that ended in an error, leaving their ads ineligible (a missing key, an "
            "overflow, a limit), by core.",
            &DC::custom_errors),
    counter("decisiond_decision_capped_ads_total", "Candidate ads refused by a frequency cap, by core.",
            &DC::capped_ads),
    counter("decisiond_decision_paced_out_total",
            "Candidate ads kept out by their delivery goal's pacing (no token left, or throttled), by core.",
            &DC::paced_out),
    counter("decisiond_caps_store_waits_parsed_again_total",
            "Decisions that waited on this core for their user's state (cluster mode: the shared cap store) with "
            "every kept parse in use, so their body was copied and parsed again when the state came, by core.",
            &DC::parsed_again),
    counter("decisiond_decision_robots_total",
            "Decisions for declared robots (warning 20005), answered with no creatives, by core.", &DC::robots),
};

// What the decision handler's cross-core asks count (runtime/cross_core_asks.h).
using AC = runtime::AskCounters;
constexpr runtime::Metric<AC> kDecisionAskFamilies[] = {
    counter("decisiond_decision_forwarded_total",
            "Decisions handed to the core owning their user, by the core that received them.", &AC::sent),
    counter("decisiond_decision_served_for_peers_total",
            "Decisions decided for another core's connection, by the owner core.", &AC::served),
    counter("decisiond_decision_cross_core_asks_refused_total",
            "Decisions answered 503 10098 because the bound of decisions handed to other cores was reached, by core.",
            &AC::refused),
    counter("decisiond_decision_cross_core_asks_abandoned_total",
            "Forwarded decisions whose client had gone when the owner answered, by core.", &AC::abandoned),
};

// The first PlacementLabels::kMaxLabelled keys by name, the rest as "_other". The keys are
// listed before the values are read: a slot a core counts in after that waits for the
// next scrape.
void placements(const PlacementCounts& counts, runtime::MetricSeriesList& out) {
  const uint32_t labelled = counts.labels != nullptr ? counts.labels->labelled() : 0;
  for (uint32_t slot = 0; slot < labelled; ++slot) out.add(slot, {{"placement", counts.labels->key(slot)}});
  out.add(PlacementLabels::kOtherSlot, {{"placement", PlacementLabels::kOtherLabel}});
}

// Counted where the decision is made (the user's owner core), summed over cores.
template <const runtime::CoreCounter PlacementCounters::*kCounter>
uint64_t in_slot(const PlacementCounts& counts, uint32_t slot) {
  return (counts.counters.by_placement[slot].*kCounter).get();
}

template <const runtime::CoreCounter PlacementCounters::*kCounter>
constexpr runtime::Metric<PlacementCounts> by_placement(std::string_view name, std::string_view help) {
  return {.name = name, .type = runtime::MetricType::kCounter, .help = help, .scope = runtime::MetricScope::kAllCores,
          .series = &placements, .read = &in_slot<kCounter>};
}

constexpr runtime::Metric<PlacementCounts> kPlacementFamilies[] = {
    by_placement<&PlacementCounters::requested>(
        "decisiond_decision_placements_total",
        "Placements asked for in decisions served (200), by placement (known keys; unknown ones are "
        "decisiond_decision_unknown_placements_total)."),
    by_placement<&PlacementCounters::filled>(
        "decisiond_decision_placements_filled_total",
        "Placements of decisions served (200) answered with at least one creative, by placement: the fill rate is "
        "this over decisiond_decision_placements_total."),
    by_placement<&PlacementCounters::creatives>("decisiond_decision_placement_creatives_total",
                                                "Creatives served, by placement."),
};
}  // namespace

constinit const runtime::MetricTable<DecisionCounters> kDecisionMetricTable = kDecisionFamilies;
constinit const runtime::MetricTable<runtime::AskCounters> kDecisionAskMetricTable = kDecisionAskFamilies;
constinit const runtime::MetricTable<PlacementCounts> kPlacementMetricTable = kPlacementFamilies;

}  // namespace decision::endpoint
