#pragma once
// Which core counts an impression: the owner of its user's cap partition, so that the cap
// update and the dedup check happen in one place; with no user id in the token, the owner
// of its token id (token ids are uniform 64-bit hashes, spread like user keys): the owner of
// the impression's dedup key (tracking/dedup/impression_key.h).
#include <cstdint>
#include <optional>
#include <string_view>

#include "caps/user_key.h"
#include "tracking/dedup/impression_key.h"

namespace tracking::impressions {

inline uint32_t impression_owner_core(std::optional<std::string_view> user_id, uint64_t token_id, uint32_t cores) {
  const std::optional<uint64_t> user = user_id ? std::optional<uint64_t>(caps::user_key(*user_id)) : std::nullopt;
  return caps::owner_core(dedup::impression_key(user, token_id), cores);
}

}  // namespace tracking::impressions
