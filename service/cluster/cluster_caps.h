#pragma once
// One core's part of cluster mode's caps (docs/cluster.md): its own connections to the
// Redis Cluster, the cap store on them, and the impressions counted through it. Built only
// with --caps-store=redis://...; embedded mode has none of it.
#include <memory>

#include "caps/kept_across_cores.h"
#include "caps/redis_store/redis_cap_store.h"
#include "redis_cluster/cluster_client.h"
#include "runtime/metric_source.h"
#include "runtime/reactor.h"
#include "service/flags.h"
#include "tracking/events/event_log.h"
#include "tracking/impressions/ad_caps.h"
#include "tracking/shared_impressions/shared_impression_counter.h"

namespace service {

class ClusterCaps {
 public:
  ClusterCaps(runtime::Reactor& reactor, const ServiceConfig& config, const tracking::impressions::AdCaps& ad_caps,
              tracking::events::EventLog& log, runtime::CoreChannel& channel,
              runtime::AskPeers<caps::KeptNewsAsk>& kept_news);
  ~ClusterCaps();

  // Connects, and keeps to apply again what this core's share of the event log says was
  // logged unapplied and never answered (tracking/shared_impressions/unapplied_scan.h).
  void start(const ServiceConfig& config, uint32_t core, int64_t now_s);
  void stop() { client_.stop(); }
  caps::SharedCapStore* store() { return &store_; }
  // This core's connections to the cluster, for what else shares it (the goals' ledger).
  redis_cluster::ClusterClient& client() { return client_; }
  tracking::shared_impressions::SharedImpressionCounter* impressions() { return &impressions_; }
  // Its families, in page order, for this core (CoreServices::register_metrics).
  void register_metrics(runtime::MetricRegistry& metrics, uint32_t core) const;

 private:
  redis_cluster::ClusterClient client_;
  caps::KeptImpressions kept_;  // written by impressions_, read by store_: declared first
  caps::KeptAcrossCores kept_across_cores_;  // this core's changes to kept_ told to the others
  caps::redis_store::RedisCapStore store_;
  tracking::shared_impressions::SharedImpressionCounter impressions_;
};

// Null in embedded mode.
std::unique_ptr<ClusterCaps> make_cluster_caps(runtime::Reactor& reactor, const ServiceConfig& config,
                                               const tracking::impressions::AdCaps& ad_caps,
                                               tracking::events::EventLog& log, runtime::CoreChannel& channel,
                                               runtime::AskPeers<caps::KeptNewsAsk>& kept_news);

}  // namespace service
