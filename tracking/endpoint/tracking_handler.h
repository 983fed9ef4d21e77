#pragma once
// GET /v1/tracking on one core (docs/tracking.md):
//   1. X-Tracking-Version, before anything else (400 10042, 410 10043); every later reply
//      echoes the version served, with the deprecation headers when due;
//   2. the token `t`: missing, malformed, tampered with or sealed under a key we do not hold
//      is 400 10050; authentic but expired is 410 10051;
//   3. by kind: an impression goes to where it is counted (impression_sink/: the core that
//      owns it, or the shared cap store), and is answered 204 once its line is written (at
//      once when it is written here; else held until it is), so that what a client saw
//      acknowledged is in the log; a click is 302 to its destination, carried in the token so it works for
//      the token's whole life even after the ad has left the catalog (204 when the creative
//      has none); custom events, video milestones, player errors (with `code`) and kinds
//      this build does not know are 204. Every accepted call is written to the event log.
// Replies carry Cache-Control: no-store, so no cache between player and server swallows a
// call. HEAD is served by the router as GET without the body.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "api_versions/version_resolver.h"
#include "http/router.h"
#include "invalid_traffic/robot_verdicts.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "tracking/endpoint/tracking_query.h"
#include "tracking/impression_sink/impression_sink.h"
#include "tracking/impressions/impression_notice.h"
#include "tracking/events/event_log.h"
#include "tracking/core_keys/core_keys.h"

namespace tracking::endpoint {

// Per core, single writer; read by metrics scrapes.
struct TrackingCounters {
  runtime::CoreCounter rejected_versions;  // 400 10042, 410 10043
  runtime::CoreCounter invalid_tokens;     // 400 10050
  runtime::CoreCounter expired_tokens;     // 410 10051
  runtime::CoreCounter impressions;        // impression calls accepted (first or repeat)
  runtime::CoreCounter clicks;
  runtime::CoreCounter custom_events;
  runtime::CoreCounter video_events;
  runtime::CoreCounter errors;             // VAST player errors
  runtime::CoreCounter other_kinds;        // verification_not_executed and kinds unknown to this build
  runtime::CoreCounter robots;             // calls from declared robots: answered, logged "invalid", not counted
  runtime::CoreCounter too_fast;           // impressions sooner than --min-impression-delay: the same
};

class TrackingHandler final : public http::Handler {
 public:
  // impressions: where this core's impressions go to be counted; log: this core's. All
  // outlive the handler.
  TrackingHandler(const runtime::Clock& clock, uint32_t core_index, const api_versions::VersionTable& versions,
                  CoreKeys& keys, impression_sink::ImpressionSink& impressions, events::EventLog& log);

  // --min-impression-delay (docs/invalid-traffic.md): 0 is off.
  void set_min_impression_delay_ms(int64_t delay_ms) { min_impression_delay_ms_ = delay_ms; }
  void handle(const http::Request& request, http::Response& response) override;
  const TrackingCounters& counters() const { return counters_; }

 private:
  // Step 3 for an authentic, unexpired token.
  void accept(const TrackingEvent& event, uint64_t impression_id, const TrackingQuery& query, int64_t now_ms,
              http::Response& response);
  // False when the impression was refused (at a bound). response, the 204 written, is held
  // when the line is written elsewhere or later.
  bool take_impression(const TrackingEvent& event, uint64_t impression_id, int64_t now_ms, http::Response& response);
  // The call's line; a player error's VAST code and a verification's reason come from the
  // query.
  void log_event(const TrackingEvent& event, const TrackingQuery& query, int64_t now_ms,
                 std::string_view invalid = {}, uint64_t impression_id = 0);
  // 204, or 302 to the click URL for a click that has one.
  void answer(const TrackingEvent& event, http::Response& response);
  // The agent judged (X-Device-User-Agent when given, else User-Agent) names a robot.
  bool from_robot(const http::Request& request);
  // An impression called sooner after its decision than --min-impression-delay (judged on
  // the token's issue second, so only calls certainly that fast).
  bool too_fast(const TrackingEvent& event, int64_t now_ms) const;
  // Invalid traffic (a robot's call, a too-fast impression): answered as any other, logged
  // with "invalid": reason, counted nowhere.
  void accept_invalid(const TrackingEvent& event, uint64_t impression_id, const TrackingQuery& query, int64_t now_ms,
                      http::Response& response, std::string_view reason);

  const runtime::Clock& clock_;
  const uint32_t core_index_;
  api_versions::VersionResolver versions_;
  CoreKeys& keys_;  // the core's keys in force: each token is opened with the codec of the moment
  std::string token_storage_;
  impression_sink::ImpressionSink& impressions_;
  events::EventLog& log_;
  impressions::ImpressionNotice notice_;  // capacity kept from call to call
  TrackingCounters counters_;
  int64_t min_impression_delay_ms_ = 0;  // 0: off
  invalid_traffic::RobotVerdicts robots_{invalid_traffic::RobotMatcher::instance()};
};

}  // namespace tracking::endpoint
