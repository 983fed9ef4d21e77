#pragma once
// The parts of the explain body (explanation_writer.h) and what they share: each part is
// written by its own file (decision_writer.cc, facts_writer.cc, placement_writer.cc,
// rule_writer.cc) into one JsonWriter; the shape is docs/explain.md's.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "decision/explain/explanation.h"
#include "decision/explain/explanation_writer.h"
#include "http/json_writer.h"

namespace decision::explain {

using http::JsonWriter;

// Everything a part reads.
struct Context {
  const ExplainedRequest& input;
  const catalog::CatalogSnapshot& snapshot;
  const RequestFacts& facts;
};

// The parts, in the body's order.
void write_decision(JsonWriter& json, const Context& context);
void write_facts(JsonWriter& json, const Context& context);
void write_placement(JsonWriter& json, const Context& context, size_t index, const PlacementExplanation& placement);
// The rule that excluded a candidate; with_otherwise adds the rule that would have, had
// this one passed (for the format and tier rules, which hide the rest).
void write_rule(JsonWriter& json, const Context& context, const PlacementExplanation& placement,
                const Candidate& candidate, Rule rule, bool with_otherwise);
void write_caps(JsonWriter& json, std::span<const CapCount> caps);

// Values as the body spells them.
inline constexpr std::string_view kWeekdays[7] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
std::string utc_text(int64_t unix_s);
std::string minute_text(int minute_of_day);
// Kilometres to the metre: what a radius means, without 17 digits of noise.
double km(double value);
void write_ad_id(JsonWriter& json, const catalog::CatalogSnapshot& snapshot, uint32_t ad_index);
void write_ids(JsonWriter& json, std::span<const uint64_t> ids);
void write_optional_id(JsonWriter& json, uint64_t id);        // 0: null
void write_optional_text(JsonWriter& json, std::string_view text);  // empty: null
void write_request_points(JsonWriter& json, std::span<const request::GeoPoint> points);
std::string_view format_filter_name(catalog::FormatFilter filter);
std::string_view zone_source_name(targeting::ZoneSource source);
std::string_view geo_source_name(GeoSource source);
std::string_view consent_name(request::GdprConsent consent);
// "placements[<index>]<suffix>", a JSON path into the request.
std::string placement_path(size_t index, std::string_view suffix);

}  // namespace decision::explain
