#pragma once
// Where a tracking call's impression goes to be counted, below the endpoint
// (docs/architecture.md, "User state"). Chosen once per process, where the core is wired:
// the core that owns the impression (embedded mode, owner_core_impressions.h: counted here,
// or handed to that core) or the store every node shares (cluster mode,
// shared_store_impressions.h: written ahead here, counted by the store). The endpoint only
// learns whether its 204 may leave with this turn's writes or is held until the
// impression's line is written elsewhere or later (docs/events.md "Durability").
#include <cstdint>

#include "http/response.h"
#include "tracking/impressions/impression_notice.h"

namespace tracking::impression_sink {

enum class Taken : uint8_t {
  kLogged,   // its line is appended on this core now: the reply leaves with this turn's writes
  kHeld,     // the reply is held, and leaves once the line is written elsewhere or later
  kRefused,  // at a bound: nothing was done, the reply is untouched; the caller sheds (503)
};

class ImpressionSink {
 public:
  virtual ~ImpressionSink() = default;
  // Counts notice (a first sighting, or a repeat that counts nothing), or keeps it to be
  // counted as soon as it can be. response: the call's reply, written.
  virtual Taken take(const impressions::ImpressionNotice& notice, http::Response& response) = 0;

  // The same figures in both modes (impression_sink_metrics.h), this core's: impressions
  // counted and repeats recognised, where this sink counts them; impressions its state's
  // keeper did not take (embedded: refused at the bound of impressions handed to other
  // cores, answered 503; cluster: not taken by the store in time, kept to apply again).
  virtual uint64_t counted() const = 0;
  virtual uint64_t duplicates() const = 0;
  virtual uint64_t refused() const = 0;
};

}  // namespace tracking::impression_sink
