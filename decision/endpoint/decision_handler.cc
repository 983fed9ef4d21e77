#include "decision/endpoint/decision_handler.h"

#include <utility>

#include "caps/user_key.h"
#include "decision/endpoint/decision_log.h"
#include "decision/endpoint/served_formats.h"
#include "decision/localization/accept_language.h"
#include "http/error_body.h"
#include "http/error_codes.h"

namespace decision::endpoint {

using http::error_code::kInternalError;

namespace {
constexpr std::string_view kUserAgentHeader = "User-Agent";
}  // namespace

DecisionHandler::DecisionHandler(const runtime::Clock& clock, uint32_t core_index,
                                 const api_versions::VersionTable& versions,
                                 tracking::CoreKeys& keys, const DecisionSettings& settings,
                                 std::shared_ptr<const ServedCatalog> catalog, user_state::UserStateRoute& route,
                                 tracking::events::EventLog* log, pacing::CorePacing* pacing)
    : clock_(clock),
      catalog_(std::move(catalog)),
      intakes_(versions, settings.max_body_bytes, settings.kept_intakes),
      links_(keys, settings.base_url, settings.tracking_ttl_s),
      documents_(keys, settings.base_url, settings.tracking_ttl_s),
      video_(documents_, keys, settings.base_url, settings.vast_tag_ttl_s),
      writer_(links_, video_),
      random_(settings.seed, core_index),
      targeting_(settings.geo),
      pacing_rule_(cap_rule_, pacing, random_),
      request_ids_(settings.process_start_wall_ns, core_index),
      route_(route),
      log_(log),
      core_index_(core_index) {
  route_.serve(*this);
}

void DecisionHandler::handle(const http::Request& request, http::Response& response) { serve(request, response); }

void DecisionHandler::serve(const http::Request& request, http::Response& response) {
  const int64_t now_s = clock_.wall_s();
  switch (intake().read(request, now_s, response)) {
    case IntakeVerdict::kAccepted: break;
    case IntakeVerdict::kRejectedVersion: counters_.rejected_versions.add(); return;
    case IntakeVerdict::kWrongMediaType: counters_.wrong_media_type.add(); return;
    case IntakeVerdict::kInvalidBody: counters_.invalid_bodies.add(); return;
  }
  decide(request, now_s, response);
}

void DecisionHandler::decide(const http::Request& request, int64_t now_s, http::Response& response) {
  const ServedCatalog& served = *catalog_;
  const request::DecisionRequest& asked = intake().request();
  // Judged before anything else: a robot's decision reads no caps and waits on no core.
  if (const response::RobotAgent robot = robot_agent(request); robot != response::RobotAgent::kNone) {
    serve_robot(served, request, now_s, response, robot);
    return;
  }
  targeting_.begin_request(asked, now_s, intake().version().features().destination_targeting,
                           served.custom_programs);
  // Caps apply to a user whose id may be used (GDPR, docs/caps.md).
  std::optional<uint64_t> user_key;
  if (targeting_.user_id_usable() && asked.user.id) user_key = caps::user_key(*asked.user.id);
  if (user_key && !reach_user_state(served, *user_key, request, response)) return;
  cap_rule_.begin_request(&route_.state(), user_key, now_s);
  select_placements(served, intake().version().features(), now_s);
  if (!write_reply(served, request, now_s, response)) return;
  if (user_key) hold_pending_serves(served, *user_key, now_s);
}

bool DecisionHandler::reach_user_state(const ServedCatalog& served, uint64_t user_key, const http::Request& request,
                                       http::Response& response) {
  const user_state::StateAsk ask{
      .user_key = user_key,
      .reads_caps = asks_for_capped_placements(served),
      .can_keep_parse = intakes_.can_keep(),
  };
  const user_state::Reached reached = route_.reach(ask, request, response);
  switch (reached.reach) {
    case user_state::Reach::kHere:
      return true;
    case user_state::Reach::kAway:
      // Waiting here, the parse goes with the request when an intake is free to keep it;
      // else its body was copied, to be parsed again.
      if (reached.waits_here) {
        if (ask.can_keep_parse) {
          intakes_.keep_current_for(reached.travelling);
        } else {
          counters_.parsed_again.add();
        }
      }
      return false;
    case user_state::Reach::kRefused:
      intake().refuse_overloaded(response, "overloaded: too many decisions waiting on other cores, retry later");
      return false;
  }
  return false;
}

bool DecisionHandler::asks_for_capped_placements(const ServedCatalog& served) const {
  const catalog::CatalogIndex& index = served.snapshot->index();
  for (const request::PlacementRequest& asked : intake().request().placements()) {
    const std::optional<uint32_t> placement = index.placement_index(asked.key);
    if (placement && served.placement_has_caps[*placement]) return true;
  }
  return false;
}

void DecisionHandler::arrive(const http::Request& request, http::Response& reply,
                             const user_state::ForwardedRequest& travelled) {
  DecisionIntake* kept = intakes_.take_kept_for(&travelled);
  if (kept == nullptr) {
    serve(request, reply);
    return;
  }
  // Decided on the parse kept since it arrived, its version's headers echoed again.
  DecisionIntake* reading = intakes_.make_current(kept);
  kept->add_version_headers(reply);
  decide(request, clock_.wall_s(), reply);
  intakes_.make_current(reading);
  intakes_.give_back(kept);
}

void DecisionHandler::hold_pending_serves(const ServedCatalog& served, uint64_t user_key, int64_t now_s) {
  for (const response::PlacementDecision& decision : std::span(placements_.data(), intake().request().placements().size())) {
    for (const selection::Pick& pick : decision.picks) {
      const catalog::Ad& ad = served.snapshot->ads()[pick.ad_index];
      if (!ad.frequency_caps.empty()) route_.hold_pending(user_key, ad.id, now_s);
    }
  }
}

response::RobotAgent DecisionHandler::robot_agent(const http::Request& request) {
  using response::RobotAgent;
  // device.ua, when the request gives it, is judged alone (docs/invalid-traffic.md).
  const std::string_view device_ua = intake().request().device_ua;
  if (!device_ua.empty()) return robots_.is_robot(device_ua) ? RobotAgent::kDeviceUa : RobotAgent::kNone;
  return robots_.is_robot(request.header(kUserAgentHeader)) ? RobotAgent::kUserAgentHeader : RobotAgent::kNone;
}

void DecisionHandler::serve_robot(const ServedCatalog& served, const http::Request& request, int64_t now_s,
                                  http::Response& response, response::RobotAgent robot) {
  counters_.robots.add();
  for (size_t i = 0; i < intake().request().placements().size(); ++i) resolve_placement(served, i);
  write_reply(served, request, now_s, response, robot);
}

response::PlacementDecision& DecisionHandler::resolve_placement(const ServedCatalog& served, size_t i) {
  const request::PlacementRequest& asked = intake().request().placements()[i];
  response::PlacementDecision& decision = placements_[i];
  decision.key = asked.key;
  decision.placement_index = served.snapshot->index().placement_index(asked.key);
  decision.picks = {};
  if (!decision.placement_index) counters_.unknown_placements.add();
  return decision;
}

void DecisionHandler::select_placements(const ServedCatalog& served, const api_versions::VersionFeatures& features,
                                        int64_t now_s) {
  const catalog::CatalogSnapshot& snapshot = *served.snapshot;
  chosen_.clear();
  size_t picks_used = 0;
  const auto placements = intake().request().placements();
  for (size_t i = 0; i < placements.size(); ++i) {
    const request::PlacementRequest& asked = placements[i];
    response::PlacementDecision& decision = resolve_placement(served, i);
    if (!decision.placement_index) continue;
    selection::PlacementFilter filter;
    filter.format = formats_to_serve(features, asked);
    filter.advertiser_id = asked.advertiser_id;
    filter.template_id = asked.template_id;
    targeting_.begin_placement(asked);
    const std::span<selection::Pick> out(picks_.data() + picks_used, asked.count);
    const uint32_t picked =
        selector_.select(snapshot, *decision.placement_index, filter, now_s, &pacing_rule_, chosen_, out);
    decision.picks = {picks_.data() + picks_used, picked};
    for (const selection::Pick& pick : decision.picks) pacing_rule_.served(snapshot.ads()[pick.ad_index]);
    picks_used += picked;
    counters_.creatives.add(picked);
    if (picked == 0) counters_.empty_placements.add();
  }
  counters_.custom_evaluations.set(targeting_.custom_evaluations());
  counters_.custom_errors.set(targeting_.custom_errors());
  counters_.capped_ads.set(cap_rule_.capped());
  counters_.paced_out.set(pacing_rule_.paced_out());
}

bool DecisionHandler::write_reply(const ServedCatalog& served, const http::Request& request, int64_t now_s,
                                  http::Response& response, response::RobotAgent robot) {
  const localization::LanguagePreferences languages = localization::parse_accept_language(
      request.find_header(localization::kAcceptLanguageHeader));
  if (!languages.present()) counters_.language_missing.add();

  tracking::TokenIssue issue;
  issue.request_id = request_ids_.next();
  if (targeting_.user_id_usable()) issue.user_id = intake().request().user.id;
  issue.now_s = now_s;
  const response::ResponseInput input{
      .snapshot = *served.snapshot,
      .text = served.text,
      .features = intake().version().features(),
      .languages = languages,
      .version_warning = intake().version().warning,
      .placements = {placements_.data(), intake().request().placements().size()},
      .tracking = issue,
      .robot = robot,
  };
  response.set_json(200);
  response.body().clear();
  response::WriteOutcome outcome;
  if (!writer_.write(input, response.body(), outcome)) {
    counters_.token_failures.add();
    http::set_error(response, 500, kInternalError, "internal error: a tracking token could not be sealed");
    return false;
  }
  counters_.language_fallbacks.add(outcome.language_fallbacks);
  counters_.decisions.add();
  for (const response::PlacementDecision& decision : input.placements) {
    if (!decision.placement_index) continue;
    PlacementCounters& counted = counters_.by_placement[served.placement_slots[*decision.placement_index]];
    counted.requested.add();
    counted.creatives.add(decision.picks.size());
    if (!decision.picks.empty()) counted.filled.add();
  }
  if (log_ != nullptr) log_decision(input, core_index_, clock_.wall_ns() / 1'000'000, *log_);
  return true;
}

}  // namespace decision::endpoint
