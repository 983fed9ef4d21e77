#pragma once
// A core's keys in force (docs/keys.md, "Reloading keys"): a pointer to the codecs of one
// ring (ring_codecs.h) that only the owning core reads and writes. Whatever seals or opens
// on the core (decision tokens and tag URLs, VAST documents, the tracking and VAST tag
// endpoints) holds this object and asks it for the codec at each use, so replacing the
// pointer re-points every user at once; none keeps a codec of its own.
//
// adopt() runs on the core between two requests (a message of the update loop), so a
// request is served from start to end with the codecs it began with. It swaps one pointer:
// no lock, no allocation; the previous codecs go back to the caller, which frees them off
// the reactor.
#include <cstdint>
#include <memory>

#include "runtime/core_counter.h"
#include "tracking/core_keys/ring_codecs.h"
#include "tracking/tokens/key_ring.h"

namespace tracking {

// What /metrics reads of a core's keys (core_keys_metrics.h); written by the core alone.
struct CoreKeyGauges {
  runtime::CoreCounter signing_key_id;  // the key id new tokens and tags carry
  runtime::CoreCounter keys;            // keys that open tokens and verify tags here
};

class CoreKeys {
 public:
  // The codecs the core starts with, built here from ring.
  explicit CoreKeys(const KeyRing& ring);
  CoreKeys(const CoreKeys&) = delete;
  CoreKeys& operator=(const CoreKeys&) = delete;

  TokenCodec& tokens() { return codecs_->tokens(); }
  VastTagCodec& tags() { return codecs_->tags(); }

  // next serves from now on; the previous codecs are handed back. next must not be null.
  std::unique_ptr<RingCodecs> adopt(std::unique_ptr<RingCodecs> next);

  const CoreKeyGauges& gauges() const { return gauges_; }

 private:
  void show(const RingCodecs& codecs);

  std::unique_ptr<RingCodecs> codecs_;
  CoreKeyGauges gauges_;
};

}  // namespace tracking
