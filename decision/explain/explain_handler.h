#pragma once
// POST /admin/explain on one core (docs/explain.md): a decision request in, exactly as a
// client sends it to POST /v1/decision (same body, same X-Decision-Version, Content-Type
// and Accept-Language, read by the same reader and version resolver, answered with the
// same errors), and out the decision it would get plus every candidate ad of each
// placement with the first rule that excluded it.
//
// Checks, in the decision's order: the body limit of the public listener (413 10003, which
// the public parser answers before any handler runs), the version (400 10042, 410 10043),
// the media type (415 10002), the body (400 10001, 422 with every error). Every reply past
// the version echoes it, with the deprecation headers a decision would carry.
//
// An explain reads frequency caps when the decision would, so it goes to the user's state by
// the same kind of route as a decision (decision/user_state/). It writes neither cap state nor the
// event log, mints no tracking token, and draws from its own generator (explaining_walk.h):
// the decisions served meanwhile are exactly those served without it.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/decision_intake.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/explain/explain_ask.h"
#include "decision/explain/explaining_walk.h"
#include "decision/explain/explanation.h"
#include "decision/user_state/user_state_route.h"
#include "http/router.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"

namespace decision::explain {

// Per core, single writer; read by metrics scrapes.
struct ExplainCounters {
  runtime::CoreCounter explains;            // 200 replies
  runtime::CoreCounter rejected_versions;   // 400 10042 and 410 10043
  runtime::CoreCounter wrong_media_type;    // 415
  runtime::CoreCounter invalid_bodies;      // 400 10001 and 422
  runtime::CoreCounter bodies_too_large;    // 413: past the public listener's body limit
};

class ExplainHandler final : public http::Handler, public user_state::RouteUser {
 public:
  // Explains a core may have waiting on other cores at once, all peers together. Explains
  // are an operator's tool, not traffic: a handful is plenty.
  static constexpr uint32_t kMaxAsksInFlight = ExplainAsk::kPerPeer;

  // clock, versions and route (the way to users' states, which this handler serves from
  // now on) must outlive the handler. settings: the decision handler's, read here once
  // (--seed, --geonames-dir and --geoip-db, the public body limit). pacing: this core's
  // share of the delivery goals (null: not paced).
  ExplainHandler(const runtime::Clock& clock, uint32_t core_index, const api_versions::VersionTable& versions,
                 const endpoint::DecisionSettings& settings, std::shared_ptr<const endpoint::ServedCatalog> catalog,
                 user_state::UserStateRoute& route, const pacing::CorePacing* pacing);

  void handle(const http::Request& request, http::Response& response) override;

  // Replaced on this core's thread only, between requests.
  void set_catalog(std::shared_ptr<const endpoint::ServedCatalog> catalog) { catalog_ = std::move(catalog); }
  // Null: none. The decoded GeoIP records of the old database are forgotten.
  void set_geoip(const geo::GeoIpDatabase* geoip) { walk_.set_geoip(geoip); }

  const ExplainCounters& counters() const { return counters_; }
  const request::RequestReaderCounters& reader_counters() const { return intake_.reader_counters(); }
  // An explain that went to its user's state is there now: explained with it.
  void arrive(const http::Request& request, http::Response& reply,
              const user_state::ForwardedRequest& travelled) override;

 private:
  void serve(const http::Request& request, http::Response& response);
  void explain(const http::Request& request, int64_t now_s, http::Response& response);

  const runtime::Clock& clock_;
  std::shared_ptr<const endpoint::ServedCatalog> catalog_;
  size_t max_body_bytes_;
  endpoint::DecisionIntake intake_;
  ExplainingWalk walk_;
  Explanation explanation_;
  user_state::UserStateRoute& route_;
  uint32_t core_index_ = 0;
  ExplainCounters counters_;
};

}  // namespace decision::explain
