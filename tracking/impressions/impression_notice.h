#pragma once
// An impression call handed to the core that counts it: the owner of its user's cap
// partition (hash(user id) % cores), or for a token without a user id the owner of its
// dedup entry (token id % cores). The receiving core fills it and lends it with a message;
// the owner counts and logs it and sends it back.
#include <array>
#include <cstdint>
#include <string>

namespace tracking::endpoint {
class TrackingHandler;
}  // namespace tracking::endpoint

namespace tracking::impressions {

struct ImpressionNotice {
  endpoint::TrackingHandler* home = nullptr;  // dereferenced on the home core only
  uint32_t home_core = 0;
  uint32_t owner_core = 0;
  int64_t time_ms = 0;  // when the call arrived
  uint64_t token_id = 0;
  int64_t issued_s = 0;
  int64_t expires_s = 0;
  uint64_t ad_id = 0;
  uint64_t creative_id = 0;
  uint64_t placement_id = 0;
  std::array<uint8_t, 16> request_id{};
  bool has_user = false;
  std::string user_id;  // capacity kept from call to call
};

}  // namespace tracking::impressions
