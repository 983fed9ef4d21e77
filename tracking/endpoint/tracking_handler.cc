#include "tracking/endpoint/tracking_handler.h"

#include "http/error_body.h"
#include "runtime/check.h"
#include "http/error_codes.h"
#include "tracking/dedup/impression_key.h"
#include "tracking/endpoint/tracking_query.h"

namespace tracking::endpoint {

namespace {
// The agent judged, in this order (docs/invalid-traffic.md).
constexpr std::string_view kDeviceUserAgentHeader = "X-Device-User-Agent";
constexpr std::string_view kUserAgentHeader = "User-Agent";
constexpr std::string_view kInvalidRobot = "robot";
constexpr std::string_view kInvalidTooFast = "too_fast";

std::string_view kind_name(const TrackingEvent& event) {
  switch (event.kind) {
    case EventKind::kImpression: return "impression";
    case EventKind::kClick: return "click";
    case EventKind::kCustom: return "custom";
    case EventKind::kVideo: return "video";
    case EventKind::kError: return "error";
    case EventKind::kVerificationNotExecuted: return "verification_not_executed";
  }
  return "unknown";
}
}  // namespace

TrackingHandler::TrackingHandler(const runtime::Clock& clock, uint32_t core_index,
                                 const api_versions::VersionTable& versions, CoreKeys& keys,
                                 impression_sink::ImpressionSink& impressions, events::EventLog& log)
    : clock_(clock),
      core_index_(core_index),
      versions_(versions, api_versions::kTrackingVersionHeader),
      keys_(keys),
      impressions_(impressions),
      log_(log) {
  token_storage_.reserve(kMaxPayloadBytes);
  notice_.user_id.reserve(kMaxUserIdBytes);
}

void TrackingHandler::handle(const http::Request& request, http::Response& response) {
  const int64_t now_ms = clock_.wall_ns() / 1'000'000;
  const int64_t now_s = now_ms / 1000;
  const api_versions::Resolution& version = versions_.resolve_request(request, now_s);
  if (!version.served()) {
    counters_.rejected_versions.add();
    api_versions::VersionResolver::write_error(version, response);
    return;
  }
  versions_.add_reply_headers(version, response);
  response.add_header("Cache-Control", "no-store");

  const TrackingQuery query = parse_tracking_query(request.query);
  if (!query.token) {
    counters_.invalid_tokens.add();
    http::set_error(response, 400, http::error_code::kInvalidTrackingToken,
                    query.token_repeated ? "tracking token invalid: t given more than once"
                                         : "tracking token invalid: t is missing");
    return;
  }
  const DecodedToken decoded = keys_.tokens().decode(*query.token, now_s, token_storage_);
  switch (decoded.verdict) {
    case TokenVerdict::kValid:
      break;
    case TokenVerdict::kExpired:
      counters_.expired_tokens.add();
      http::set_error(response, 410, http::error_code::kExpiredTrackingToken, "tracking token expired");
      return;
    default:
      counters_.invalid_tokens.add();
      http::set_error(response, 400, http::error_code::kInvalidTrackingToken, "tracking token invalid");
      return;
  }
  if (from_robot(request)) {
    counters_.robots.add();
    accept_invalid(decoded.event, dedup::impression_identity(decoded.event), query, now_ms, response, kInvalidRobot);
    return;
  }
  if (too_fast(decoded.event, now_ms)) {
    counters_.too_fast.add();
    accept_invalid(decoded.event, dedup::impression_identity(decoded.event), query, now_ms, response, kInvalidTooFast);
    return;
  }
  accept(decoded.event, dedup::impression_identity(decoded.event), query, now_ms, response);
}

bool TrackingHandler::from_robot(const http::Request& request) {
  // Server-side ad insertion calls on the viewer's behalf and forwards the viewer's agent.
  const std::string_view forwarded = request.header(kDeviceUserAgentHeader);
  return robots_.is_robot(!forwarded.empty() ? forwarded : request.header(kUserAgentHeader));
}

bool TrackingHandler::too_fast(const TrackingEvent& event, int64_t now_ms) const {
  // The token holds its issue time in whole seconds, at or before the decision: measured from
  // it, a call is flagged only when it certainly came sooner than the delay.
  return min_impression_delay_ms_ > 0 && event.kind == EventKind::kImpression &&
         now_ms < event.issued_at_s * 1000 + min_impression_delay_ms_;
}

void TrackingHandler::accept_invalid(const TrackingEvent& event, uint64_t impression_id, const TrackingQuery& query,
                                     int64_t now_ms, http::Response& response, std::string_view reason) {
  answer(event, response);
  log_event(event, query, now_ms, reason, event.kind == EventKind::kImpression ? impression_id : 0);
}

void TrackingHandler::answer(const TrackingEvent& event, http::Response& response) {
  response.set_status(204);
  if (event.kind == EventKind::kClick && !event.click_url.empty()) {
    response.set_status(302);
    response.add_header("Location", event.click_url);
  }
}

void TrackingHandler::accept(const TrackingEvent& event, uint64_t impression_id, const TrackingQuery& query,
                             int64_t now_ms, http::Response& response) {
  answer(event, response);
  switch (event.kind) {
    case EventKind::kImpression:
      if (!take_impression(event, impression_id, now_ms, response)) {
        http::set_overloaded(response, "overloaded: too many impressions waiting on other cores, retry later");
        return;
      }
      counters_.impressions.add();
      return;  // logged by the core that counts it
    case EventKind::kClick: counters_.clicks.add(); break;
    case EventKind::kCustom: counters_.custom_events.add(); break;
    case EventKind::kVideo: counters_.video_events.add(); break;
    case EventKind::kError: counters_.errors.add(); break;
    default: counters_.other_kinds.add(); break;
  }
  log_event(event, query, now_ms);
}

bool TrackingHandler::take_impression(const TrackingEvent& event, uint64_t impression_id, int64_t now_ms,
                                      http::Response& response) {
  notice_.time_ms = now_ms;
  notice_.token_id = impression_id;
  notice_.issued_s = event.issued_at_s;
  notice_.expires_s = event.expires_at_s;
  notice_.ad_id = event.ad_id;
  notice_.creative_id = event.creative_id;
  notice_.placement_id = event.placement_id;
  notice_.request_id = event.request_id;
  notice_.attempt = 0;
  notice_.has_user = event.user_id.has_value();
  notice_.user_id.assign(event.user_id.value_or(""));
  return impressions_.take(notice_, response) != impression_sink::Taken::kRefused;
}

void TrackingHandler::log_event(const TrackingEvent& event, const TrackingQuery& query, int64_t now_ms,
                                std::string_view invalid, uint64_t impression_id) {
  events::EventRecord record;
  record.time_ms = now_ms;
  record.kind = kind_name(event);
  if (event.kind == EventKind::kCustom || event.kind == EventKind::kVideo) record.name = event_name(event);
  if (event.kind == EventKind::kVerificationNotExecuted) record.name = event.vendor;
  record.ad = event.ad_id;
  record.creative = event.creative_id;
  record.placement = event.placement_id;
  record.request_id = event.request_id;
  record.user = event.user_id;
  record.core = core_index_;
  record.tracking = true;
  record.issued_s = event.issued_at_s;
  record.expires_s = event.expires_at_s;
  if (event.kind == EventKind::kError) record.code = vast_error_code(query.code);
  if (event.kind == EventKind::kVerificationNotExecuted) record.reason = verification_reason(query.reason);
  record.kind_code = static_cast<uint8_t>(event.kind);
  record.invalid = invalid;
  record.token_id = impression_id;
  log_.append(record);
}

}  // namespace tracking::endpoint
