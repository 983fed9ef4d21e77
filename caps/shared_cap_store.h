#pragma once
// A cap store outside the process, shared by several nodes (docs/cluster.md): its answers
// come back later, so a decision asks for its user's state and decides when it arrives, and
// an impression is one atomic step whose outcome arrives later. The Redis Cluster store
// (caps/redis_store/) is the one implementation; decisions and tracking see only this.
//
// Every call either refuses at once (false: at the store's bound, nothing will follow) or
// is answered exactly once, on the calling core, never inside the call itself.
#include <cstdint>
#include <optional>
#include <span>

#include "caps/cap_store.h"

namespace caps {

class CapReadDone {
 public:
  virtual ~CapReadDone() = default;
  // state: the user's caps as the store holds them, valid during the call only; null when
  // the store did not answer within its deadline (the caller fails closed).
  virtual void on_caps_read(const CapReader* state) = 0;
};

enum class ImpressionOutcome : uint8_t {
  kCounted,    // first sighting of its identity: counted against the caps, pending cleared
  kRepeat,     // its identity was counted before: nothing written
  kUnapplied,  // no answer in time: the caller keeps it and applies it again later
};

class ImpressionDone {
 public:
  virtual ~ImpressionDone() = default;
  virtual void on_impression_counted(ImpressionOutcome outcome) = 0;
};

struct ImpressionStep {
  std::optional<uint64_t> user_key;  // none: only the identity is recorded
  uint64_t impression_id = 0;        // the served ad's identity (request id, ad, creative, placement)
  uint64_t ad_id = 0;
  std::span<const CapRule> caps;     // the ad's caps now (empty: nothing to count against)
  int64_t now_s = 0;
  int64_t issued_s = 0;   // when its token was issued: which pending serve it ends
  int64_t expires_s = 0;  // when its token expires: until then a repeat is recognised
  // Names this impression's first attempt, the same when it is sent again: the identity is
  // stored with it, so an attempt whose answer was lost (a deadline passed, a primary killed
  // after replying) is recognised as the one that counted it, not taken for a repeat.
  uint64_t attempt = 0;
};

class SharedCapStore {
 public:
  virtual ~SharedCapStore() = default;
  virtual bool read(uint64_t user_key, CapReadDone& done) = 0;
  virtual bool count_impression(const ImpressionStep& step, ImpressionDone& done) = 0;
  // A capped ad served (with a serve window): written without waiting for the answer.
  virtual void add_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) = 0;
};

}  // namespace caps
