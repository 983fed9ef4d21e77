#pragma once
// What every token minted for one served decision shares: its request id, the user (only
// when the user may be recognised, docs/targeting.md "GDPR"), and the time it was decided. Tracking
// URLs of the JSON response, of a VAST document and of a VAST tag are all sealed from it.
#include <cstdint>
#include <optional>
#include <string_view>

#include "tracking/tokens/tracking_event.h"

namespace tracking {

struct TokenIssue {
  RequestId request_id{};
  std::optional<std::string_view> user_id;
  int64_t now_s = 0;
};

}  // namespace tracking
