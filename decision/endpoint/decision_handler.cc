#include "decision/endpoint/decision_handler.h"

#include "decision/endpoint/media_type.h"
#include "decision/localization/accept_language.h"
#include "http/error_body.h"

namespace decision::endpoint {

namespace {
constexpr int kUnsupportedMediaType = 10002;
constexpr int kInternalError = 10099;
// What a repeated header's values amount to when joined (RFC 9110 section 5.3): a list,
// never one exact date.
constexpr std::string_view kRepeatedHeaderValue = "(repeated header)";

absl::CivilDay utc_day(int64_t now_s) {
  int64_t days = now_s / 86400;
  if (now_s % 86400 < 0) --days;  // floor, for clocks before 1970
  return absl::CivilDay(1970, 1, 1) + days;
}

// Which formats a placement may be served in. 2025-01-01 knows native ads only and ignores
// `format`; later versions honour it. Video responses (delivery, vast, videoEvents) are
// not built yet, so video ads are not candidates under any version: a placement asking for
// video only gets none. (Returning a video ad without them would break the spec's video
// rules 1 and 3.)
std::optional<catalog::FormatFilter> formats_to_serve(const versions::VersionFeatures& features,
                                                      const request::PlacementRequest& placement) {
  if (features.format_filter && placement.format == request::AdFormat::kVideo) return std::nullopt;
  return catalog::FormatFilter::kNative;
}

}  // namespace

DecisionHandler::DecisionHandler(const runtime::Clock& clock, uint32_t core_index,
                                 const versions::VersionTable& versions,
                                 const tracking::KeyRing& keys, const DecisionSettings& settings,
                                 std::shared_ptr<const ServedCatalog> catalog)
    : clock_(clock),
      catalog_(std::move(catalog)),
      versions_(versions, versions::kDecisionVersionHeader),
      reader_(settings.max_body_bytes),
      codec_(keys),
      links_(codec_, settings.base_url, settings.tracking_ttl_s),
      writer_(links_),
      random_(settings.seed, core_index),
      targeting_(settings.geo),
      request_ids_(settings.process_start_wall_ns, core_index) {}

void DecisionHandler::handle(const http::Request& request, http::Response& response) {
  const int64_t now_s = clock_.wall_s();
  // Two version headers are two versions: not an exact value (DESIGN section 6), so the
  // request gets the malformed-header answer rather than whichever came first.
  const std::optional<std::string_view> version_header =
      request.has_repeated_header(versions::kDecisionVersionHeader)
          ? std::optional<std::string_view>(kRepeatedHeaderValue)
          : request.find_header(versions::kDecisionVersionHeader);
  const versions::Resolution& version = versions_.resolve(version_header, utc_day(now_s));
  if (!version.served()) {
    counters_.rejected_versions.add();
    versions::VersionResolver::write_error(version, response);
    return;
  }
  versions_.add_reply_headers(version, response);

  if (request.has_repeated_header("Content-Type") || !is_json_media_type(request.header("Content-Type"))) {
    counters_.wrong_media_type.add();
    http::set_error(response, 415, kUnsupportedMediaType, "Content-Type must be application/json");
    return;
  }

  request::ReadOptions options;
  options.format_understood = version.features().format_filter;
  options.destination_understood = version.features().destination_targeting;
  const request::ReadResult read = reader_.read(request.body, options, request_);
  if (!read.ok()) {
    counters_.invalid_bodies.add();
    response.set_json(read.http_status());
    response.body().clear();
    http::append_error_envelope(response.body(), read.errors);
    return;
  }
  decide(version, request, now_s, response);
}

void DecisionHandler::decide(const versions::Resolution& version, const http::Request& request,
                             int64_t now_s, http::Response& response) {
  const ServedCatalog& served = *catalog_;
  const catalog::CatalogSnapshot& snapshot = *served.snapshot;
  const versions::VersionFeatures& features = version.features();

  targeting_.begin_request(request_, now_s, features.destination_targeting, served.custom_programs);
  chosen_.clear();
  size_t picks_used = 0;
  const auto placements = request_.placements();
  for (size_t i = 0; i < placements.size(); ++i) {
    const request::PlacementRequest& asked = placements[i];
    response::PlacementDecision& decision = placements_[i];
    decision.key = asked.key;
    decision.placement_index = snapshot.index().placement_index(asked.key);
    decision.picks = {};
    if (!decision.placement_index) {
      counters_.unknown_placements.add();
      continue;
    }
    const std::optional<catalog::FormatFilter> formats = formats_to_serve(features, asked);
    uint32_t picked = 0;
    if (formats) {
      selection::PlacementFilter filter;
      filter.format = *formats;
      filter.advertiser_id = asked.advertiser_id;
      filter.template_id = asked.template_id;
      targeting_.begin_placement(asked);
      const std::span<selection::Pick> out(picks_.data() + picks_used, asked.count);
      picked = selector_.select(snapshot, *decision.placement_index, filter, now_s, &targeting_,
                                chosen_, out);
    }
    decision.picks = {picks_.data() + picks_used, picked};
    picks_used += picked;
    counters_.creatives.add(picked);
    if (picked == 0) counters_.empty_placements.add();
  }

  counters_.custom_evaluations.set(targeting_.custom_evaluations());
  counters_.custom_errors.set(targeting_.custom_errors());

  const localization::LanguagePreferences languages = localization::parse_accept_language(
      request.find_header(localization::kAcceptLanguageHeader));
  if (!languages.present()) counters_.language_missing.add();

  response::TrackingIssue issue;
  issue.request_id = request_ids_.next();
  if (targeting_.user_id_usable()) issue.user_id = request_.user.id;
  issue.now_s = now_s;
  const response::ResponseInput input{
      .snapshot = snapshot,
      .text = served.text,
      .features = features,
      .languages = languages,
      .version_warning = version.warning,
      .placements = {placements_.data(), placements.size()},
      .tracking = issue,
  };
  response.set_json(200);
  response.body().clear();
  response::WriteOutcome outcome;
  if (!writer_.write(input, response.body(), outcome)) {
    counters_.token_failures.add();
    http::set_error(response, 500, kInternalError, "internal error: a tracking token could not be sealed");
    return;
  }
  counters_.language_fallbacks.add(outcome.language_fallbacks);
  counters_.decisions.add();
}

}  // namespace decision::endpoint
