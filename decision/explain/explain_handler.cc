#include "decision/explain/explain_handler.h"

#include <algorithm>

#include "caps/user_key.h"
#include "decision/explain/explanation_writer.h"
#include "decision/localization/accept_language.h"
#include "http/error_body.h"
#include "http/error_codes.h"

namespace decision::explain {

using http::error_code::kBodyTooLarge;  // as http/request_parser.cc answers it

ExplainHandler::ExplainHandler(const runtime::Clock& clock, uint32_t core_index,
                               const api_versions::VersionTable& versions,
                               const endpoint::DecisionSettings& settings,
                               std::shared_ptr<const endpoint::ServedCatalog> catalog, const ExplainLinks& links)
    : clock_(clock),
      catalog_(std::move(catalog)),
      max_body_bytes_(settings.max_body_bytes),
      intake_(versions, settings.max_body_bytes),
      walk_(settings.geo, settings.seed),
      links_(links),
      core_index_(core_index),
      asks_(*this, links.channel, links.peers, std::min(kMaxAsksInFlight, settings.max_cross_core_asks)),
      cap_reads_(*this, links.shared_caps != nullptr ? kMaxAsksInFlight : 0) {
  walk_.set_pacing(links.pacing);
}

void ExplainHandler::handle(const http::Request& request, http::Response& response) {
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
  switch (intake_.read(request, now_s, response)) {
    case endpoint::IntakeVerdict::kAccepted: break;
    case endpoint::IntakeVerdict::kRejectedVersion: counters_.rejected_versions.add(); return;
    case endpoint::IntakeVerdict::kWrongMediaType: counters_.wrong_media_type.add(); return;
    case endpoint::IntakeVerdict::kInvalidBody: counters_.invalid_bodies.add(); return;
  }
  explain(request, now_s, response, forwarded_from);
}

void ExplainHandler::explain(const http::Request& request, int64_t now_s, http::Response& response,
                             std::optional<uint32_t> forwarded_from) {
  const std::shared_ptr<const endpoint::ServedCatalog> served = catalog_;  // held for the whole explain
  const request::DecisionRequest& asked = intake_.request();
  const WalkInput input{*served, asked, intake_.version().features(), now_s};
  walk_.begin_request(input);

  // As DecisionHandler::decide: caps apply to a user whose id may be used, and their state
  // lives on the core that owns the user.
  std::optional<uint64_t> user_key;
  if (walk_.user_id_usable() && asked.user.id) user_key = caps::user_key(*asked.user.id);
  const caps::CapReader* caps = links_.caps;
  std::optional<uint32_t> owner;
  if (user_key && links_.shared_caps != nullptr) {
    // Cluster mode: the user's state is read from the shared store, from this core.
    if (!caps_read_ && cap_reads_.ask(*links_.shared_caps, *user_key, request, response)) return;
    caps = caps_read_ && fetched_caps_ != nullptr ? fetched_caps_ : &caps_unavailable_;
  } else if (user_key) {
    owner = asks_.wired() ? caps::owner_core(*user_key, links_.channel->cores()) : core_index_;
  }
  if (owner && *owner != core_index_ && !forwarded_from && asks_.wired()) {
    if (!forward(request, response, *owner)) {
      intake_.refuse_overloaded(response, "overloaded: too many explains waiting on other cores, retry later");
    }
    return;
  }

  walk_.explain(input, caps, user_key, explanation_);
  explanation_.facts.received_on_core = forwarded_from.value_or(core_index_);
  explanation_.facts.decided_on_core = core_index_;
  explanation_.facts.owner_core = owner;

  const localization::LanguagePreferences languages =
      localization::parse_accept_language(request.find_header(localization::kAcceptLanguageHeader));
  response.set_json(200);
  response.body().clear();
  write_explanation(ExplainedRequest{*served, asked, intake_.version(), languages, explanation_}, response.body());
  counters_.explains.add();
}

bool ExplainHandler::forward(const http::Request& request, http::Response& response, uint32_t owner_core) {
  ExplainAsk* ask = asks_.take(owner_core);
  if (ask == nullptr) return false;
  ask->capture(request, response);
  // Refused, the caller answers 503 at once, which undoes the deferral.
  return asks_.send(ask);
}

void ExplainHandler::serve_ask(ExplainAsk& ask, uint32_t from_core) {
  // The request as the asking core received it: the headers a decision reads and the body.
  const http::Request request = ask.replay("/admin/explain");
  ask.reply().reset();
  serve(request, ask.reply(), from_core);
}

void ExplainHandler::finish_cap_read(endpoint::CapReadWait& wait, const caps::CapReader* state) {
  const http::Request request = wait.replay("/admin/explain");
  wait.reply().reset();
  caps_read_ = true;
  fetched_caps_ = state;
  serve(request, wait.reply(), std::nullopt);
  caps_read_ = false;
  fetched_caps_ = nullptr;
  wait.complete();
  cap_reads_.give_back(wait);
}

}  // namespace decision::explain
