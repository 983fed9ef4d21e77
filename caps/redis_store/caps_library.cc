#include "caps/redis_store/caps_library.h"

namespace caps::redis_store {

namespace {

// Entries are the bytes of a caps::CapEntry but its key (the key is the hash field):
// u32 expires_s, then 5 u32 words, little-endian. A bucketed entry's words 1..4 are 8 u16
// counts. Pending fields are 'p' and the ad's 8 bytes; their value is the u32 times at which
// each pending serve lapses. Every time is clamped to 1..2^32-1 as the C++ side does.
constexpr std::string_view kLibrary = R"lua(#!lua name=decisiond_caps
local U32 = 4294967295
local BUCKETS = 8
local SATURATED = 65535
local MAX_PENDING = 20

local function clamp(s)
  if s < 1 then return 1 end
  if s > U32 then return U32 end
  return s
end

local function read_entry(hash, field, now)
  local v = redis.call('HGET', hash, field)
  if v then
    local e = {struct.unpack('<I4I4I4I4I4I4', v)}
    if now < e[1] then return e end
  end
  return nil
end

local function write_entry(hash, field, e)
  redis.call('HSET', hash, field, struct.pack('<I4I4I4I4I4I4', e[1], e[2], e[3], e[4], e[5], e[6]))
  return e[1]
end

local function record_recent(hash, field, window, now)
  local e = read_entry(hash, field, now) or {0, 0, 0, 0, 0, 0}
  e = {e[1], clamp(now), e[2], e[3], e[4], e[5]}
  e[1] = math.max(e[1], clamp(now + window))
  return write_entry(hash, field, e)
end

local function counts_of(e)
  local c = {}
  for i = 3, 6 do
    c[#c + 1] = e[i] % 65536
    c[#c + 1] = math.floor(e[i] / 65536)
  end
  return c
end

local function record_bucketed(hash, field, window, width, now)
  local e = read_entry(hash, field, now)
  local start, c, expires
  if e then
    start, c, expires = e[2], counts_of(e), e[1]
  else
    start, c, expires = clamp(now - (BUCKETS - 1) * width), {0, 0, 0, 0, 0, 0, 0, 0}, 0
  end
  local bucket = math.floor((now - start) / width)
  if bucket < 0 then bucket = 0 end
  if bucket >= BUCKETS then
    local shift = bucket - (BUCKETS - 1)
    local slid = {}
    for b = 0, BUCKETS - 1 do slid[b + 1] = c[b + shift + 1] or 0 end
    c = slid
    start = clamp(start + shift * width)
    bucket = BUCKETS - 1
  end
  if c[bucket + 1] ~= SATURATED then c[bucket + 1] = c[bucket + 1] + 1 end
  expires = math.max(expires, clamp(start + BUCKETS * width + window))
  local w = {}
  for i = 0, 3 do w[i + 1] = c[2 * i + 1] + 65536 * c[2 * i + 2] end
  return write_entry(hash, field, {expires, start, w[1], w[2], w[3], w[4]})
end

-- The lapse times still pending at now, from a pending field's value.
local function pending_of(v, now)
  local live = {}
  if v then
    for i = 1, #v, 4 do
      local t = struct.unpack('<I4', v, i)
      if now < t then live[#live + 1] = t end
    end
  end
  return live
end

local function write_pending(hash, field, live)
  if #live == 0 then
    redis.call('HDEL', hash, field)
    return 0
  end
  local parts, latest = {}, 0
  for i, t in ipairs(live) do
    parts[i] = struct.pack('<I4', t)
    latest = math.max(latest, t)
  end
  redis.call('HSET', hash, field, table.concat(parts))
  return latest
end

-- The serve that lapses first among those still pending that lapse at or before bound.
local function clear_pending(hash, field, bound, now)
  local live = pending_of(redis.call('HGET', hash, field), now)
  local earliest
  for i, t in ipairs(live) do
    if t <= bound and (earliest == nil or t < live[earliest]) then earliest = i end
  end
  if earliest then table.remove(live, earliest) end
  write_pending(hash, field, live)
end

-- Dead fields go when their user is written, so a hash never holds more than its live
-- entries plus one impression's worth; the whole hash expires with its last entry.
local function prune(hash, now)
  local all = redis.call('HGETALL', hash)
  for i = 1, #all, 2 do
    local field, v = all[i], all[i + 1]
    if string.sub(field, 1, 1) == 'p' and #field == 9 then
      if #pending_of(v, now) == 0 then redis.call('HDEL', hash, field) end
    elseif #v == 24 and now >= struct.unpack('<I4', v) then
      redis.call('HDEL', hash, field)
    end
  end
end

local function extend(hash, until_s)
  if until_s > 0 and redis.call('EXPIRETIME', hash) < until_s then redis.call('EXPIREAT', hash, until_s) end
end

redis.register_function('decisiond_impression', function(keys, args)
  local now, until_s, attempt = tonumber(args[1]), tonumber(args[2]), args[3]
  local previous = redis.call('SET', keys[2], attempt, 'NX', 'EXAT', until_s, 'GET')
  if previous then
    if previous == attempt then return 1 end  -- this attempt counted it; its answer was lost
    return 0
  end
  local window, issued, ad = tonumber(args[4]), tonumber(args[5]), args[6]
  local hash = keys[1]
  prune(hash, now)
  local latest = 0
  if args[7] ~= '' then latest = math.max(latest, record_recent(hash, args[7], tonumber(args[8]), now)) end
  for i = 9, #args, 3 do
    latest = math.max(latest, record_bucketed(hash, args[i], tonumber(args[i + 1]), tonumber(args[i + 2]), now))
  end
  if window > 0 then clear_pending(hash, 'p' .. ad, math.min(U32, math.max(0, issued + window)), now) end
  extend(hash, latest)
  return 1
end)

redis.register_function('decisiond_pend', function(keys, args)
  local now, lapses, hash = tonumber(args[1]), tonumber(args[2]), keys[1]
  local field = 'p' .. args[3]
  local live = pending_of(redis.call('HGET', hash, field), now)
  if #live >= MAX_PENDING then return 0 end
  live[#live + 1] = lapses
  extend(hash, write_pending(hash, field, live))
  return 1
end)
)lua";

}  // namespace

std::string_view caps_library() { return kLibrary; }

}  // namespace caps::redis_store
