#include "tracking/core_keys/core_keys.h"

#include <utility>

#include "runtime/check.h"

namespace tracking {

CoreKeys::CoreKeys(const KeyRing& ring) : codecs_(std::make_unique<RingCodecs>(ring)) { show(*codecs_); }

std::unique_ptr<RingCodecs> CoreKeys::adopt(std::unique_ptr<RingCodecs> next) {
  DECISIOND_CHECK(next != nullptr);
  std::swap(codecs_, next);
  show(*codecs_);
  return next;
}

void CoreKeys::show(const RingCodecs& codecs) {
  gauges_.signing_key_id.set(codecs.signing_key_id());
  gauges_.keys.set(codecs.keys());
}

}  // namespace tracking
