#include "tracking/core_keys/ring_codecs.h"

namespace tracking {

RingCodecs::RingCodecs(const KeyRing& ring)
    : signing_key_id_(ring.signing_key().id), keys_(ring.entries().size()), tokens_(ring), tags_(tokens_, ring) {}

}  // namespace tracking
