#include "redis_cluster/cluster_metrics.h"

namespace redis_cluster {

namespace {
using CC = ClusterCounters;
using runtime::MetricType;

constexpr runtime::MetricRow<CC> kOutcomes[] = {
    {R"(outcome="reply")", &CC::replies},
    {R"(outcome="error_reply")", &CC::error_replies},
    {R"(outcome="timeout")", &CC::timeouts},
    {R"(outcome="unavailable")", &CC::unavailable},
    {R"(outcome="refused")", &CC::refused},
};

constexpr runtime::MetricRow<CC> kRedirections[] = {
    {R"(kind="moved")", &CC::moved},
    {R"(kind="ask")", &CC::asked},
    {R"(kind="retry")", &CC::retries},
};

uint64_t round_trip_bucket(const CC& c, uint32_t, size_t b) { return c.round_trip_buckets[b].get(); }
uint64_t round_trip_sum_us(const CC& c, uint32_t) { return c.round_trip_sum_us.get(); }

constexpr runtime::MetricHistogram<CC> kRoundTrip{kRoundTripBucketsUs, 1e-6, &round_trip_bucket,
                                                 &round_trip_sum_us, 1e-6};

constexpr runtime::Metric<CC> kFamilies[] = {
    {.name = "decisiond_redis_calls_total", .type = MetricType::kCounter,
     .help = "Redis calls by outcome (reply, error_reply, timeout, unavailable, refused at the in-flight bound), by "
             "core.",
     .rows = kOutcomes},
    {.name = "decisiond_redis_round_trip_seconds", .type = MetricType::kHistogram,
     .help = "Time from a Redis call to its reply, redirections included (all cores).",
     .scope = runtime::MetricScope::kAllCores, .histogram = &kRoundTrip},
    {.name = "decisiond_redis_redirections_total", .type = MetricType::kCounter,
     .help = "Calls sent again: MOVED, ASK, and retries after TRYAGAIN, CLUSTERDOWN or LOADING, by core.",
     .rows = kRedirections},
    runtime::counter("decisiond_redis_reconnects_total", "Connections to a node established again, by core.",
                     &CC::reconnects),
    runtime::counter("decisiond_redis_connection_failures_total",
                     "Connections refused, timed out or lost, by core.", &CC::connection_failures),
    runtime::counter("decisiond_redis_topology_refreshes_total", "CLUSTER SHARDS requests sent, by core.",
                     &CC::topology_refreshes),
    runtime::counter("decisiond_redis_library_loads_total", "FUNCTION LOAD REPLACE sent to a node, by core.",
                     &CC::library_loads),
    runtime::counter("decisiond_redis_sends_total",
                     "Sends handed to the kernel on the connections to Redis nodes, each with every command one "
                     "loop turn gathered for its node, by core.",
                     &CC::sends),
    runtime::gauge("decisiond_redis_cluster_state",
                   "The client's view of the cluster: 0 starting, 1 up, 2 partial, 3 down, 4 not a cluster, 5 auth "
                   "failed, by core.",
                   &CC::state),
    runtime::gauge("decisiond_redis_connected_primaries", "Primaries with a ready connection, by core.",
                   &CC::connected_primaries),
    runtime::gauge("decisiond_redis_full_coverage_nodes",
                   "Connected nodes whose cluster-require-full-coverage is yes (while one primary is down, they "
                   "refuse every key), by core.",
                   &CC::full_coverage_nodes),
};
}  // namespace

constinit const runtime::MetricTable<ClusterCounters> kClusterMetricTable = kFamilies;

}  // namespace redis_cluster
