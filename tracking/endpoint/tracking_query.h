#pragma once
// The query of GET /v1/tracking (docs/tracking.md): `t`, the sealed token, for player
// errors `code`, the VAST error code the player put in place of [ERRORCODE], and for
// verifications that did not run `reason`, in place of [REASON]. Anything else
// in the query is ignored (a player or proxy may add cache-busters).
#include <cstdint>
#include <optional>
#include <string_view>

namespace tracking::endpoint {

struct TrackingQuery {
  std::optional<std::string_view> token;  // absent, or given more than once: nullopt
  bool token_repeated = false;
  std::optional<std::string_view> code;   // raw text of the first `code`
  std::optional<std::string_view> reason; // raw text of the first `reason`
};

TrackingQuery parse_tracking_query(std::string_view query);

// `code` is the one unauthenticated parameter: an integer 100..999 is the player's VAST error
// code; anything else, or none, is 900 (VAST's "undefined error").
int vast_error_code(std::optional<std::string_view> code);

// `reason` of a verification_not_executed call, the code the player put in place of
// VAST's [REASON] (1 resource rejected, 2 not supported, 3 load error; later VAST versions
// may add more): an integer 1..999, else nothing (absent, or the macro left unreplaced).
std::optional<int> verification_reason(std::optional<std::string_view> reason);

}  // namespace tracking::endpoint
