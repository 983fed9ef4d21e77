#pragma once
// What the Redis Cluster cap store of one core counts (docs/operations.md "Cluster mode"),
// and the table /metrics reads it with. The cluster client's own families (round trips,
// redirections, reconnects, state) are decisiond_redis_*.
#include "runtime/core_counter.h"
#include "runtime/metric_source.h"

namespace caps::redis_store {

struct RedisCapCounters {
  runtime::CoreCounter reads;                // user states asked for
  runtime::CoreCounter reads_answered;
  runtime::CoreCounter impressions_counted;
  runtime::CoreCounter impressions_repeated;
  runtime::CoreCounter impressions_unapplied;  // not counted in time: kept to apply again
  runtime::CoreCounter pends;                // pending serves written
  runtime::CoreCounter pends_lost;           // not written (at the bound, or the store failed)
};

extern const runtime::MetricTable<RedisCapCounters> kRedisCapMetricTable;

}  // namespace caps::redis_store
