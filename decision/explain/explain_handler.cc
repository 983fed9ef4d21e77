#include "decision/explain/explain_handler.h"

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
                               std::shared_ptr<const endpoint::ServedCatalog> catalog,
                               user_state::UserStateRoute& route, const pacing::CorePacing* pacing)
    : clock_(clock),
      catalog_(std::move(catalog)),
      max_body_bytes_(settings.max_body_bytes),
      intake_(versions, settings.max_body_bytes),
      walk_(settings.geo, settings.seed),
      route_(route),
      core_index_(core_index) {
  walk_.set_pacing(pacing);
  route_.serve(*this);
}

void ExplainHandler::handle(const http::Request& request, http::Response& response) { serve(request, response); }

void ExplainHandler::arrive(const http::Request& request, http::Response& reply,
                            const user_state::ForwardedRequest&) {
  serve(request, reply);
}

void ExplainHandler::serve(const http::Request& request, http::Response& response) {
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
  explain(request, now_s, response);
}

void ExplainHandler::explain(const http::Request& request, int64_t now_s, http::Response& response) {
  const std::shared_ptr<const endpoint::ServedCatalog> served = catalog_;  // held for the whole explain
  const request::DecisionRequest& asked = intake_.request();
  const WalkInput input{*served, asked, intake_.version().features(), now_s};
  walk_.begin_request(input);

  // As DecisionHandler::decide: caps apply to a user whose id may be used, read from the
  // user's state, reached by the same kind of route.
  std::optional<uint64_t> user_key;
  if (walk_.user_id_usable() && asked.user.id) user_key = caps::user_key(*asked.user.id);
  std::optional<uint32_t> owner;
  if (user_key) {
    switch (route_.reach({.user_key = *user_key}, request, response).reach) {
      case user_state::Reach::kHere:
        break;
      case user_state::Reach::kAway:
        return;  // explained where the state is; arrive() follows
      case user_state::Reach::kRefused:
        intake_.refuse_overloaded(response, "overloaded: too many explains waiting on other cores, retry later");
        return;
    }
    owner = route_.owner_core(*user_key);
  }

  walk_.explain(input, &route_.state(), user_key, explanation_);
  explanation_.facts.received_on_core = route_.received_on_core();
  explanation_.facts.decided_on_core = core_index_;
  explanation_.facts.owner_core = owner;

  const localization::LanguagePreferences languages =
      localization::parse_accept_language(request.find_header(localization::kAcceptLanguageHeader));
  response.set_json(200);
  response.body().clear();
  write_explanation(ExplainedRequest{*served, asked, intake_.version(), languages, explanation_}, response.body());
  counters_.explains.add();
}

}  // namespace decision::explain
