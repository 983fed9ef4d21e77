#pragma once
// What one core's ClusterClient counts: written by its reactor thread alone, read by
// scrapes (cluster_metrics.h exports them).
#include <array>
#include <cstdint>

#include "runtime/core_counter.h"

namespace redis_cluster {

// Round trips from call() to its reply, in microseconds; the last bucket is +Inf.
inline constexpr std::array<int64_t, 11> kRoundTripBucketsUs = {50,   100,   250,   500,   1000,  2500,
                                                                 5000, 10000, 25000, 50000, 100000};

struct ClusterCounters {
  // Calls by outcome.
  runtime::CoreCounter replies;
  runtime::CoreCounter error_replies;
  runtime::CoreCounter timeouts;
  runtime::CoreCounter unavailable;
  runtime::CoreCounter refused;  // call() returned false: the in-flight bound

  std::array<runtime::CoreCounter, kRoundTripBucketsUs.size() + 1> round_trip_buckets;
  runtime::CoreCounter round_trip_sum_us;

  runtime::CoreCounter moved;
  runtime::CoreCounter asked;
  runtime::CoreCounter retries;  // TRYAGAIN, CLUSTERDOWN, LOADING

  runtime::CoreCounter reconnects;           // connections (re)established after the first
  runtime::CoreCounter connection_failures;  // connects refused or timed out, connections lost
  runtime::CoreCounter topology_refreshes;   // CLUSTER SHARDS sent
  runtime::CoreCounter library_loads;        // FUNCTION LOAD REPLACE sent
  // Sends handed to the kernel over every node's connection: each carries all that one loop
  // turn gathered for its node, so calls / sends is the client's batching.
  runtime::CoreCounter sends;

  runtime::CoreCounter state;  // ClusterState as a number
  runtime::CoreCounter connected_primaries;
  // Gauge: nodes that said cluster-require-full-coverage yes (one primary down stops all).
  runtime::CoreCounter full_coverage_nodes;

  void record_round_trip(int64_t us) {
    size_t bucket = 0;
    while (bucket < kRoundTripBucketsUs.size() && us > kRoundTripBucketsUs[bucket]) ++bucket;
    round_trip_buckets[bucket].add();
    round_trip_sum_us.add(static_cast<uint64_t>(us < 0 ? 0 : us));
  }
};

}  // namespace redis_cluster
