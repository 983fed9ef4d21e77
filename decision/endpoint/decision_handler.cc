#include "decision/endpoint/decision_handler.h"

#include <cstdio>
#include <cstdlib>

#include "caps/user_key.h"
#include "decision/endpoint/decision_log.h"
#include "decision/endpoint/media_type.h"
#include "decision/localization/accept_language.h"
#include "http/error_body.h"

namespace decision::endpoint {

namespace {
constexpr int kUnsupportedMediaType = 10002;
constexpr int kInternalError = 10099;
constexpr int kOverloaded = 10098;
// Which formats a placement may be served in. 2025-01-01 knows native ads only and ignores
// `format`; from 2025-11-01 video ads are served too, and `format` narrows to one of the two.
catalog::FormatFilter formats_to_serve(const api_versions::VersionFeatures& features,
                                       const request::PlacementRequest& placement) {
  if (!features.video) return catalog::FormatFilter::kNative;
  if (!features.format_filter || !placement.format) return catalog::FormatFilter::kAny;
  return *placement.format == request::AdFormat::kVideo ? catalog::FormatFilter::kVideo
                                                        : catalog::FormatFilter::kNative;
}

}  // namespace

DecisionHandler::DecisionHandler(const runtime::Clock& clock, uint32_t core_index,
                                 const api_versions::VersionTable& versions,
                                 const tracking::KeyRing& keys, const DecisionSettings& settings,
                                 std::shared_ptr<const ServedCatalog> catalog,
                                 const CoreLinks& links)
    : clock_(clock),
      catalog_(std::move(catalog)),
      versions_(versions, api_versions::kDecisionVersionHeader),
      reader_(settings.max_body_bytes),
      codec_(keys),
      links_(codec_, settings.base_url, settings.tracking_ttl_s),
      documents_(codec_, settings.base_url, settings.tracking_ttl_s),
      tags_(codec_, keys),
      video_(documents_, tags_, settings.base_url, settings.vast_tag_ttl_s),
      writer_(links_, video_),
      random_(settings.seed, core_index),
      targeting_(settings.geo),
      request_ids_(settings.process_start_wall_ns, core_index),
      core_links_(links),
      core_index_(core_index),
      asks_(settings.max_cross_core_asks, links.peers != nullptr ? static_cast<uint32_t>(links.peers->size()) : 1) {}

void DecisionHandler::handle(const http::Request& request, http::Response& response) {
  serve(request, response, /*forwarded=*/false);
}

void DecisionHandler::serve(const http::Request& request, http::Response& response, bool forwarded) {
  const int64_t now_s = clock_.wall_s();
  const api_versions::Resolution& version = versions_.resolve_request(request, now_s);
  if (!version.served()) {
    counters_.rejected_versions.add();
    api_versions::VersionResolver::write_error(version, response);
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
  decide(version, request, now_s, response, forwarded);
}

void DecisionHandler::decide(const api_versions::Resolution& version, const http::Request& request,
                             int64_t now_s, http::Response& response, bool forwarded) {
  const ServedCatalog& served = *catalog_;
  const catalog::CatalogSnapshot& snapshot = *served.snapshot;
  const api_versions::VersionFeatures& features = version.features();

  targeting_.begin_request(request_, now_s, features.destination_targeting, served.custom_programs);
  // Caps apply to a user whose id may be used (GDPR, DESIGN section 4); their state lives on
  // the core that owns the user.
  std::optional<uint64_t> user_key;
  if (targeting_.user_id_usable() && request_.user.id) user_key = caps::user_key(*request_.user.id);
  if (user_key && !forwarded && core_links_.peers != nullptr) {
    const uint32_t owner = caps::owner_core(*user_key, static_cast<uint32_t>(core_links_.peers->size()));
    if (owner != core_index_) {
      if (!forward(request, response, owner)) {
        counters_.asks_refused.add();
        response.reset();
        versions_.add_reply_headers(version, response);
        response.add_header("Retry-After", "1");
        http::set_error(response, 503, kOverloaded,
                        "overloaded: too many decisions waiting on other cores, retry later");
      }
      return;
    }
  }
  cap_rule_.begin_request(core_links_.caps, user_key, now_s);
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
    selection::PlacementFilter filter;
    filter.format = formats_to_serve(features, asked);
    filter.advertiser_id = asked.advertiser_id;
    filter.template_id = asked.template_id;
    targeting_.begin_placement(asked);
    const std::span<selection::Pick> out(picks_.data() + picks_used, asked.count);
    const uint32_t picked =
        selector_.select(snapshot, *decision.placement_index, filter, now_s, &cap_rule_, chosen_, out);
    decision.picks = {picks_.data() + picks_used, picked};
    picks_used += picked;
    counters_.creatives.add(picked);
    if (picked == 0) counters_.empty_placements.add();
  }

  counters_.custom_evaluations.set(targeting_.custom_evaluations());
  counters_.custom_errors.set(targeting_.custom_errors());
  counters_.capped_ads.set(cap_rule_.capped());

  const localization::LanguagePreferences languages = localization::parse_accept_language(
      request.find_header(localization::kAcceptLanguageHeader));
  if (!languages.present()) counters_.language_missing.add();

  tracking::TokenIssue issue;
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
  for (const response::PlacementDecision& decision : input.placements) {
    if (!decision.placement_index) continue;
    PlacementCounters& counted = counters_.by_placement[served.placement_slots[*decision.placement_index]];
    counted.requested.add();
    counted.creatives.add(decision.picks.size());
    if (!decision.picks.empty()) counted.filled.add();
  }
  if (core_links_.log != nullptr) log_decision(input, core_index_, clock_.wall_ns() / 1'000'000, *core_links_.log);
}

namespace {

// The message runs. A message names the handler it is for; only that handler's core runs
// it, so each handler is touched by its own core alone.
void run_on_owner(runtime::Reactor&, const runtime::Message& message);
void run_at_home(runtime::Reactor&, const runtime::Message& message);

}  // namespace

bool DecisionHandler::forward(const http::Request& request, http::Response& response, uint32_t owner_core) {
  ForwardedDecision* ask = asks_.take(owner_core);
  if (ask == nullptr) return false;
  ask->ticket = response.defer();
  ask->home = this;
  ask->home_core = core_index_;
  ask->owner_core = owner_core;
  ask->body.assign(request.body);
  const std::optional<std::string_view> version = request.find_header(api_versions::kDecisionVersionHeader);
  ask->has_version = version.has_value();
  ask->version.assign(version.value_or(""));
  const std::optional<std::string_view> languages = request.find_header(localization::kAcceptLanguageHeader);
  ask->has_accept_language = languages.has_value();
  ask->accept_language.assign(languages.value_or(""));

  runtime::Message message;
  message.run = &run_on_owner;
  message.pointer = ask;
  message.words[0] = reinterpret_cast<uintptr_t>((*core_links_.peers)[owner_core]);
  if (!core_links_.channel->post(owner_core, message)) {
    asks_.give_back(ask, owner_core);
    response.reset();  // undo the deferral: the caller answers 503 now
    return false;
  }
  counters_.forwarded.add();
  return true;
}

void DecisionHandler::decide_for_peer(ForwardedDecision& ask) {
  // The request as the home core received it: the headers a decision reads and the body.
  http::Request request;
  request.method = http::Method::kPost;
  request.path = "/v1/decision";
  request.headers[request.header_count++] = {"Content-Type", "application/json"};
  if (ask.has_version) request.headers[request.header_count++] = {api_versions::kDecisionVersionHeader, ask.version};
  if (ask.has_accept_language) {
    request.headers[request.header_count++] = {localization::kAcceptLanguageHeader, ask.accept_language};
  }
  request.body = ask.body;
  ask.reply.reset();
  serve(request, ask.reply, /*forwarded=*/true);
  counters_.served_for_peers.add();

  runtime::Message message;
  message.run = &run_at_home;
  message.pointer = &ask;
  message.words[0] = reinterpret_cast<uintptr_t>(ask.home);
  // LoanPool bounds the asks of each pair of cores so that the answers always fit the
  // queue home; a refusal here is a broken invariant, not a load condition.
  if (!core_links_.channel->post(ask.home_core, message)) {
    std::fprintf(stderr, "decisiond: core %u: the answer queue to core %u is full\n", core_index_,
                 ask.home_core);
    std::abort();
  }
}

void DecisionHandler::finish_forwarded(ForwardedDecision& ask) {
  if (!ask.ticket.complete(ask.reply)) counters_.asks_abandoned.add();
  ask.ticket = {};
  asks_.give_back(&ask, ask.owner_core);
}

namespace {

void run_on_owner(runtime::Reactor&, const runtime::Message& message) {
  auto* owner = reinterpret_cast<DecisionHandler*>(message.words[0]);
  owner->decide_for_peer(*static_cast<ForwardedDecision*>(message.pointer));
}

void run_at_home(runtime::Reactor&, const runtime::Message& message) {
  auto* home = reinterpret_cast<DecisionHandler*>(message.words[0]);
  home->finish_forwarded(*static_cast<ForwardedDecision*>(message.pointer));
}

}  // namespace

}  // namespace decision::endpoint
