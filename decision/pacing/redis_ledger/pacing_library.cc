#include "decision/pacing/redis_ledger/pacing_library.h"

#include <cinttypes>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "runtime/check.h"

namespace decision::pacing::redis_ledger {

namespace {

// Counts are integers well inside Lua's exact doubles (goals are at most 2^40).
constexpr std::string_view kLibrary = R"lua(#!lua name=decisiond_pacing
local function field_number(key, field)
  return tonumber(redis.call('HGET', key, field) or '0')
end

-- What a node's report adds: its total beyond the highest it reported before ('n:<node>'),
-- so a report repeated after a restart, a lost answer or a death mid-report adds nothing
-- twice. A lower total (a log that lost lines at a kill) lowers nothing.
local function newly_reported(key, node, total)
  local field = 'n:' .. node
  local told = field_number(key, field)
  if total <= told then return 0 end
  redis.call('HSET', key, field, total)
  return total - told
end

local function pace(keys, args)
  local key = keys[1]
  local slice = tonumber(args[1])
  local interval = tonumber(args[2])
  local node = args[3]
  local total = tonumber(args[4])
  local settle_slice = tonumber(args[5])
  local settle_tokens = tonumber(args[6])
  local settle_served = tonumber(args[7])
  local target = tonumber(args[8])
  local want = tonumber(args[9])
  local keep_until = tonumber(args[10])
  local delta = newly_reported(key, node, total)
  local delivered = redis.call('HINCRBY', key, 'delivered', delta)
  if delta > 0 then redis.call('HINCRBY', key, 'd:' .. slice, delta) end
  if settle_tokens > 0 then
    redis.call('HINCRBY', key, 'x:' .. settle_slice, settle_tokens)
    redis.call('HINCRBY', key, 'u:' .. settle_slice, settle_served)
  end
  local previous = slice - interval
  local in_flight = 0
  for _, s in ipairs({slice, previous}) do
    local unsettled = field_number(key, 'g:' .. s) - field_number(key, 'x:' .. s)
    if unsettled > 0 then in_flight = in_flight + unsettled end
  end
  local unreported = field_number(key, 'u:' .. previous) - field_number(key, 'd:' .. slice)
  if unreported < 0 then unreported = 0 end
  local available = target - delivered - in_flight - unreported
  if available < 0 then available = 0 end
  local granted = math.min(want, available)
  if granted > 0 then redis.call('HINCRBY', key, 'g:' .. slice, granted) end
  local old = slice - 2 * interval
  redis.call('HDEL', key, 'g:' .. old, 'x:' .. old, 'u:' .. old, 'd:' .. old)
  redis.call('EXPIREAT', key, keep_until)
  return {granted, delivered}
end
redis.register_function('decisiond_pace', pace)
)lua";

}  // namespace

std::string_view pacing_library() { return kLibrary; }

std::string pace_key(uint64_t ad_id) {
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016" PRIx64, ad_id);
  return absl::StrCat("dcd:{p:", hex, "}");
}

std::array<std::string, kPaceArguments> pace_arguments(const LeaseRequest& r) {
  DECISIOND_CHECK_MSG(!r.node_id.empty(), "a report to the goals' ledger names its node");
  return {absl::StrCat(r.slice_id),      absl::StrCat(r.interval_s),     std::string(r.node_id),
          absl::StrCat(r.delivered_total), absl::StrCat(r.settle_slice_id), absl::StrCat(r.settle_tokens),
          absl::StrCat(r.settle_served), absl::StrCat(r.target),         absl::StrCat(r.want),
          absl::StrCat(r.keep_until_s)};
}

}  // namespace decision::pacing::redis_ledger
