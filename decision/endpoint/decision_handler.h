#pragma once
// POST /v1/decision on one core (docs/decision-request.md, docs/decision-response.md):
//   1-3. the intake (decision_intake.h): version, media type, the body read and validated;
//   4. a user whose id may be used: the decision goes to the user's state by the core's route
//      (decision/user_state/: to the core that owns the user, or it waits for the shared
//      store), and runs these steps again there with it while this core serves others;
//   5. per placement, in request order: its ads chosen (unknown key: no creatives and
//      warning 20003), never the same ad twice in one response, frequency caps read from
//      the user's state;
//   6. the 200 body, tracking tokens sealed into it.
// Every reply past step 1 echoes the version served.
//
// Everything a decision touches is owned by the handler and reused, so a warm core
// allocates nothing per request; the clock is read once per request.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "decision/capping/frequency_cap_rule.h"
#include "decision/pacing/pacing_rule.h"
#include "decision/endpoint/decision_intake.h"
#include "decision/endpoint/kept_intakes.h"
#include "decision/endpoint/placement_labels.h"
#include "decision/endpoint/request_ids.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/request/request_reader.h"
#include "decision/response/response_writer.h"
#include "decision/selection/ad_selector.h"
#include "decision/selection/core_random.h"
#include "decision/targeting/rules/targeting_rule.h"
#include "decision/user_state/user_state_route.h"
#include "api_versions/version_resolver.h"
#include "http/router.h"
#include "invalid_traffic/robot_verdicts.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "tracking/events/event_log.h"
#include "tracking/core_keys/core_keys.h"

namespace decision::endpoint {

struct DecisionSettings {
  std::string base_url;          // --base-url, no trailing slash
  int64_t tracking_ttl_s = 3600; // --tracking-ttl
  int64_t vast_tag_ttl_s = 900;  // --vast-tag-ttl
  uint64_t seed = 0;             // --seed, or one drawn at start
  size_t max_body_bytes = request::RequestReader::kDefaultCapacityBytes;
  int64_t process_start_wall_ns = 0;
  targeting::GeoSources geo;     // --geonames-dir, --geoip-db (either may be absent)
  // Parses kept with decisions waiting for the shared cap store (kept_intakes.h): cluster
  // mode's wiring sets kKeptIntakesInClusterMode; embedded mode keeps none.
  uint32_t kept_intakes = 0;
};

// One placement label's share of the decisions served (200), known keys only. Fill rate
// is filled / requested: the share of requests for the placement that got a creative.
struct PlacementCounters {
  runtime::CoreCounter requested;  // times the placement was asked for
  runtime::CoreCounter filled;     // of which answered with at least one creative
  runtime::CoreCounter creatives;  // creatives served in it
};

// Per core, single writer; read by metrics scrapes.
struct DecisionCounters {
  runtime::CoreCounter decisions;            // 200 replies
  runtime::CoreCounter creatives;            // creatives in them
  runtime::CoreCounter empty_placements;     // known placements answered with no creative
  runtime::CoreCounter unknown_placements;   // warning 20003
  runtime::CoreCounter language_fallbacks;   // warning 20004 (per placement)
  runtime::CoreCounter language_missing;     // warning 20001
  runtime::CoreCounter rejected_versions;    // 400 10042 and 410 10043
  runtime::CoreCounter wrong_media_type;     // 415
  runtime::CoreCounter invalid_bodies;       // 400 10001 and 422
  runtime::CoreCounter token_failures;       // 500: a tracking token could not be sealed
  runtime::CoreCounter custom_evaluations;   // CEL targeting rules run
  runtime::CoreCounter custom_errors;        // of which ended in an error (ad not eligible)
  runtime::CoreCounter capped_ads;           // candidates refused by a frequency cap
  runtime::CoreCounter paced_out;            // candidates kept out by a delivery goal's pacing
  // Decisions that waited for their user's state on this core with no intake free to keep
  // their parse (kept_intakes.h): their body was copied and parsed again.
  runtime::CoreCounter parsed_again;
  runtime::CoreCounter robots;               // warning 20005: a declared robot's decision, no creatives
  // By label slot (placement_labels.h; ServedCatalog::placement_slots), counted where the
  // decision is made (the user's owner core).
  std::array<PlacementCounters, PlacementLabels::kSlots> by_placement;
};

class DecisionHandler final : public http::Handler, public user_state::RouteUser {
 public:
  // versions and keys (the core's keys in force, which seal every token and tag) must
  // outlive the handler, and so must route (the way to users' states, which this handler
  // serves from now on). log: this core's, a line per creative served; pacing: this core's
  // share of the delivery goals. Either null: not logged, not paced (tests and benchmarks).
  DecisionHandler(const runtime::Clock& clock, uint32_t core_index, const api_versions::VersionTable& versions,
                  tracking::CoreKeys& keys, const DecisionSettings& settings,
                  std::shared_ptr<const ServedCatalog> catalog, user_state::UserStateRoute& route,
                  tracking::events::EventLog* log, pacing::CorePacing* pacing);

  void handle(const http::Request& request, http::Response& response) override;
  // A decision that went to its user's state is there now: decided with it.
  void arrive(const http::Request& request, http::Response& reply,
              const user_state::ForwardedRequest& travelled) override;

  // The core's catalog: replaced on this core's thread only.
  void set_catalog(std::shared_ptr<const ServedCatalog> catalog) { catalog_ = std::move(catalog); }
  // The core's GeoIP database (null: none): replaced on this core's thread only, between
  // requests; the record cache follows the new database by its identity.
  void set_geoip(const geo::GeoIpDatabase* geoip) { targeting_.set_geoip(geoip); }
  const DecisionCounters& counters() const { return counters_; }
  // Request bodies read (parsed), over every intake: once per decision, unless it went to
  // another core or waited here with no intake free to keep its parse.
  uint64_t bodies_read() const { return intakes_.reads(); }

 private:
  void serve(const http::Request& request, http::Response& response);
  // Steps 4 to 6, for a request the intake accepted.
  void decide(const http::Request& request, int64_t now_s, http::Response& response);
  // Step 4: true when the user's state is here to decide with; false when the request went
  // to it (the reply follows from arrive()) or was refused (503 written).
  bool reach_user_state(const ServedCatalog& served, uint64_t user_key, const http::Request& request,
                        http::Response& response);
  bool asks_for_capped_placements(const ServedCatalog& served) const;
  // Where the agent that declares a robot was read, or kNone: the request is not a
  // robot's (docs/invalid-traffic.md).
  response::RobotAgent robot_agent(const http::Request& request);
  // A robot's decision: every placement answered with no creative, warning 20005.
  void serve_robot(const ServedCatalog& served, const http::Request& request, int64_t now_s,
                   http::Response& response, response::RobotAgent robot);
  // Placement i of the request: its key, its index in the catalog (an unknown key
  // counted), no picks yet.
  response::PlacementDecision& resolve_placement(const ServedCatalog& served, size_t i);
  // Steps 5 and 6 on this core's partition.
  void select_placements(const ServedCatalog& served, const api_versions::VersionFeatures& features,
                         int64_t now_s);
  DecisionIntake& intake() { return intakes_.current(); }
  const DecisionIntake& intake() const { return intakes_.current(); }
  // False when the reply is a 500 (a token could not be sealed): nothing was served.
  bool write_reply(const ServedCatalog& served, const http::Request& request, int64_t now_s,
                   http::Response& response, response::RobotAgent robot = response::RobotAgent::kNone);
  // With a serve window, every capped ad just served counts as pending (docs/caps.md).
  void hold_pending_serves(const ServedCatalog& served, uint64_t user_key, int64_t now_s);

  const runtime::Clock& clock_;
  std::shared_ptr<const ServedCatalog> catalog_;
  // The parses of decisions waiting here for their user's state (kept_intakes.h).
  KeptIntakes intakes_;
  response::TrackingLinks links_;
  video::VastDocumentWriter documents_;
  response::VideoFields video_;
  response::ResponseWriter writer_;
  selection::CoreRandom random_;
  selection::AdSelector selector_{random_};
  selection::ChosenAds chosen_;
  targeting::TargetingRule targeting_;
  capping::FrequencyCapRule cap_rule_{targeting_};
  pacing::PacingRule pacing_rule_;
  RequestIds request_ids_;
  user_state::UserStateRoute& route_;
  tracking::events::EventLog* log_;
  uint32_t core_index_ = 0;
  std::array<selection::Pick, request::kMaxPlacements * request::kCountMax> picks_{};
  std::array<response::PlacementDecision, request::kMaxPlacements> placements_{};
  DecisionCounters counters_;
  invalid_traffic::RobotVerdicts robots_{invalid_traffic::RobotMatcher::instance()};
};

}  // namespace decision::endpoint
