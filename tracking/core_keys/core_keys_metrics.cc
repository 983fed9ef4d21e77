#include "tracking/core_keys/core_keys_metrics.h"

namespace tracking {

namespace {
using runtime::gauge;

// Key ids are values here, never labels: a label per key would be a series per key forever.
constexpr runtime::Metric<CoreKeyGauges> kFamilies[] = {
    gauge("decisiond_keys_signing_key_id", "The id of the key that seals new tokens and signs new VAST tags, by core.",
          &CoreKeyGauges::signing_key_id),
    gauge("decisiond_keys_held", "Keys that open tokens and verify VAST tags (the signing key included), by core.",
          &CoreKeyGauges::keys),
};
}  // namespace

constinit const runtime::MetricTable<CoreKeyGauges> kCoreKeysMetricTable = kFamilies;

}  // namespace tracking
