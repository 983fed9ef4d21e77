#pragma once
// What /metrics exports of a core's ClusterClient counters (cluster_counters.h): register
// kClusterMetricTable with ClusterClient::counters() of each core.
#include "redis_cluster/cluster_counters.h"
#include "runtime/metric_source.h"

namespace redis_cluster {

extern const runtime::MetricTable<ClusterCounters> kClusterMetricTable;

}  // namespace redis_cluster
