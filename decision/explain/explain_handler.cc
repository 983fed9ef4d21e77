#include "decision/explain/explain_handler.h"

#include <algorithm>

#include "caps/user_key.h"
#include "decision/endpoint/media_type.h"
#include "decision/explain/explanation_writer.h"
#include "decision/localization/accept_language.h"
#include "http/error_body.h"

namespace decision::explain {

namespace {
constexpr int kBodyTooLarge = 10003;  // as http/request_parser.cc answers it
constexpr int kUnsupportedMediaType = 10002;
constexpr int kOverloaded = 10098;

// Message tags.
constexpr uint32_t kAsk = 1;
constexpr uint32_t kAnswer = 2;

void run_message(runtime::Reactor&, const runtime::Message& message) { ExplainHandler::deliver(message); }

}  // namespace

ExplainHandler::ExplainHandler(const runtime::Clock& clock, uint32_t core_index, const api_versions::VersionTable& versions,
                               const endpoint::DecisionSettings& settings,
                               std::shared_ptr<const endpoint::ServedCatalog> catalog, const ExplainLinks& links)
    : clock_(clock),
      catalog_(std::move(catalog)),
      versions_(versions, api_versions::kDecisionVersionHeader),
      max_body_bytes_(settings.max_body_bytes),
      reader_(settings.max_body_bytes),
      walk_(settings.geo, settings.seed),
      links_(links),
      core_index_(core_index),
      asks_(std::min(kMaxAsksInFlight, settings.max_cross_core_asks),
            links.peers != nullptr ? static_cast<uint32_t>(links.peers->size()) : 1) {
  // Every peer may have all of its asks here at once: room for each answer that waits.
  unsent_.reserve(size_t{kMaxAsksInFlight} * (links.peers != nullptr ? links.peers->size() : 1));
}

void ExplainHandler::handle(const http::Request& request, http::Response& response) {
  retry_unsent();
  serve(request, response, std::nullopt);
}

void ExplainHandler::serve(const http::Request& request, http::Response& response,
                           std::optional<uint32_t> forwarded_from) {
  // The public listener refuses a larger body while parsing it; the admin listener takes
  // catalogs, so its limit is far higher and the explain applies the public one itself.
  if (request.body.size() > max_body_bytes_) {
    counters_.bodies_too_large.add();
    http::set_error(response, 413, kBodyTooLarge, "request body too large");
    return;
  }
  const int64_t now_s = clock_.wall_s();
  const api_versions::Resolution& version = versions_.resolve_request(request, now_s);
  if (!version.served()) {
    counters_.rejected_versions.add();
    api_versions::VersionResolver::write_error(version, response);
    return;
  }
  versions_.add_reply_headers(version, response);

  if (request.has_repeated_header("Content-Type") || !endpoint::is_json_media_type(request.header("Content-Type"))) {
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
  explain(version, request, now_s, response, forwarded_from);
}

void ExplainHandler::explain(const api_versions::Resolution& version, const http::Request& request, int64_t now_s,
                             http::Response& response, std::optional<uint32_t> forwarded_from) {
  const std::shared_ptr<const endpoint::ServedCatalog> served = catalog_;  // held for the whole explain
  const WalkInput input{*served, request_, version.features(), now_s};
  walk_.begin_request(input);

  // As DecisionHandler::decide: caps apply to a user whose id may be used, and their state
  // lives on the core that owns the user.
  std::optional<uint64_t> user_key;
  if (walk_.user_id_usable() && request_.user.id) user_key = caps::user_key(*request_.user.id);
  std::optional<uint32_t> owner;
  if (user_key) {
    owner = links_.peers != nullptr ? caps::owner_core(*user_key, static_cast<uint32_t>(links_.peers->size()))
                                    : core_index_;
  }
  if (owner && *owner != core_index_ && !forwarded_from && links_.peers != nullptr) {
    if (!forward(request, response, *owner)) {
      counters_.asks_refused.add();
      response.reset();
      versions_.add_reply_headers(version, response);
      response.add_header("Retry-After", "1");
      http::set_error(response, 503, kOverloaded, "overloaded: too many explains waiting on other cores, retry later");
    }
    return;
  }

  walk_.explain(input, links_.caps, user_key, explanation_);
  explanation_.facts.received_on_core = forwarded_from.value_or(core_index_);
  explanation_.facts.decided_on_core = core_index_;
  explanation_.facts.owner_core = owner;

  const localization::LanguagePreferences languages =
      localization::parse_accept_language(request.find_header(localization::kAcceptLanguageHeader));
  response.set_json(200);
  response.body().clear();
  write_explanation(ExplainedRequest{*served, request_, version, languages, explanation_}, response.body());
  counters_.explains.add();
}

bool ExplainHandler::forward(const http::Request& request, http::Response& response, uint32_t owner_core) {
  ForwardedExplain* ask = asks_.take(owner_core);
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
  message.run = &run_message;
  message.tag = kAsk;
  message.pointer = ask;
  message.words[0] = reinterpret_cast<uintptr_t>((*links_.peers)[owner_core]);
  if (!links_.channel->post(owner_core, message)) {
    asks_.give_back(ask, owner_core);
    response.reset();  // undo the deferral: the caller answers 503 now
    return false;
  }
  counters_.forwarded.add();
  return true;
}

void ExplainHandler::explain_for_peer(ForwardedExplain& ask) {
  retry_unsent();
  // The request as the home core received it: the headers a decision reads and the body.
  http::Request request;
  request.method = http::Method::kPost;
  request.path = "/admin/explain";
  request.headers[request.header_count++] = {"Content-Type", "application/json"};
  if (ask.has_version) request.headers[request.header_count++] = {api_versions::kDecisionVersionHeader, ask.version};
  if (ask.has_accept_language) {
    request.headers[request.header_count++] = {localization::kAcceptLanguageHeader, ask.accept_language};
  }
  request.body = ask.body;
  ask.reply.reset();
  serve(request, ask.reply, ask.home_core);
  counters_.served_for_peers.add();
  send_home(ask);
}

// The answer queue home is shared with decisions and impressions, whose loan bounds fill
// it exactly (runtime/loan_pool.h), so unlike theirs an explain's answer can find it full.
// It then waits here and goes with the next explain this core handles; an explain must
// never cost the process what a decision's broken invariant does (an abort). The operator's
// fix for good is a queue kMaxAsksInFlight x 2 deeper (runtime/mailbox.h).
void ExplainHandler::send_home(ForwardedExplain& ask) {
  runtime::Message message;
  message.run = &run_message;
  message.tag = kAnswer;
  message.pointer = &ask;
  message.words[0] = reinterpret_cast<uintptr_t>(ask.home);
  if (links_.channel->post(ask.home_core, message)) return;
  counters_.answers_delayed.add();
  unsent_.push_back(&ask);
}

void ExplainHandler::retry_unsent() {
  if (unsent_.empty()) return;
  std::vector<ForwardedExplain*> waiting;
  waiting.swap(unsent_);
  unsent_.reserve(waiting.capacity());
  for (ForwardedExplain* ask : waiting) send_home(*ask);
}

void ExplainHandler::finish_forwarded(ForwardedExplain& ask) {
  if (!ask.ticket.complete(ask.reply)) counters_.asks_abandoned.add();
  ask.ticket = {};
  asks_.give_back(&ask, ask.owner_core);
}

void ExplainHandler::deliver(const runtime::Message& message) {
  auto* handler = reinterpret_cast<ExplainHandler*>(message.words[0]);
  auto* ask = static_cast<ForwardedExplain*>(message.pointer);
  if (message.tag == kAsk) {
    handler->explain_for_peer(*ask);
  } else {
    handler->finish_forwarded(*ask);
  }
}

}  // namespace decision::explain
