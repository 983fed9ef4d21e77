#pragma once
// The Redis Cluster cap store of one core (docs/cluster.md): caps, pending serves and
// impression identities of every node's users, in a Redis Cluster reached through this
// core's own connections (redis_cluster::ClusterClient).
//
//   read            HGETALL of the user's hash: one round trip, decoded into FetchedCaps;
//   count_impression  FCALL decisiond_impression: the identity checked and the impression
//                   counted in one atomic step on the user's primary;
//   add_pending     FCALL decisiond_pend, not waited for.
// Each waits at most --caps-timeout; a call past its deadline is answered as unavailable
// (reads: null state; impressions: kUnapplied) and its late reply dropped.
//
// Calls in flight are bounded per kind (pools allocated at start); at a bound a call is
// refused and counted, and the caller fails closed (decisions) or keeps the impression to
// apply again (tracking).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "caps/kept_impressions.h"
#include "caps/redis_store/fetched_caps.h"
#include "caps/redis_store/redis_cap_metrics.h"
#include "caps/shared_cap_store.h"
#include "redis_cluster/cluster_client.h"
#include "runtime/clock.h"

namespace caps::redis_store {

struct RedisCapStoreSettings {
  int64_t timeout_ns = 25'000'000;  // --caps-timeout
  int64_t serve_window_s = 0;       // --cap-serve-window
  // An impression's identity is kept until its token expires, and at least this long after
  // it was counted: an impression applied again after a restart is still recognised.
  int64_t identity_grace_s = 3600;
  uint32_t max_reads = 1024;        // reads in flight per core
  uint32_t max_impressions = 1024;  // impression steps in flight per core
  uint32_t max_pends = 1024;        // pending-serve writes in flight per core
};

class RedisCapStore final : public SharedCapStore {
 public:
  // kept: the impressions this core keeps for the store, counted in every user's state it
  // reads until they are applied (caps/kept_impressions.h).
  RedisCapStore(redis_cluster::ClusterClient& client, const runtime::Clock& clock,
                const RedisCapStoreSettings& settings, const KeptImpressions& kept);
  ~RedisCapStore() override;

  bool read(uint64_t user_key, CapReadDone& done) override;
  bool count_impression(const ImpressionStep& step, ImpressionDone& done) override;
  void add_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) override;

  const RedisCapCounters& counters() const { return counters_; }

 private:
  class ReadCall;
  class ImpressionCall;
  class PendCall;
  template <typename Call>
  class CallPool;

  int64_t deadline_ns() const { return clock_.monotonic_ns() + settings_.timeout_ns; }
  void finish_read(ReadCall& call, const redis_cluster::Reply* reply);
  void finish_impression(ImpressionCall& call, const redis_cluster::Reply* reply);

  redis_cluster::ClusterClient& client_;
  const runtime::Clock& clock_;
  const RedisCapStoreSettings settings_;
  const KeptImpressions& kept_;
  FetchedCaps fetched_;  // the one read being answered: answers run one at a time
  std::unique_ptr<CallPool<ReadCall>> reads_;
  std::unique_ptr<CallPool<ImpressionCall>> impressions_;
  std::unique_ptr<CallPool<PendCall>> pends_;
  RedisCapCounters counters_;
};

}  // namespace caps::redis_store
