#pragma once
// An impression call as the core that counts it needs it: the owner of its user's cap
// partition (hash(user id) % cores), or for a token without a user id the owner of its
// dedup entry (impression_owner.h). The receiving core fills it, and counts it itself or
// asks the owner to (tracking/impression_sink/impression_ask.h).
#include <array>
#include <cstdint>
#include <string>

namespace tracking::impressions {

struct ImpressionNotice {
  int64_t time_ms = 0;  // when the call arrived
  uint64_t token_id = 0;
  int64_t issued_s = 0;
  int64_t expires_s = 0;
  uint64_t ad_id = 0;
  uint64_t creative_id = 0;
  uint64_t placement_id = 0;
  std::array<uint8_t, 16> request_id{};
  // Cluster mode: the stamp of the first attempt to count it in the shared store, kept
  // when it is sent again (tracking/shared_impressions/); 0 until then.
  uint64_t attempt = 0;
  bool has_user = false;
  std::string user_id;  // capacity kept from call to call
};

}  // namespace tracking::impressions
