#include "service/cluster/cluster_caps.h"

#include "caps/redis_store/redis_cap_metrics.h"
#include <xxhash.h>

#include "absl/strings/str_cat.h"

#include "redis_cluster/cluster_metrics.h"
#include "runtime/log/logger.h"
#include "tracking/shared_impressions/unapplied_scan.h"
#include "tracking/shared_impressions/shared_impression_metrics.h"

namespace service {

namespace {

redis_cluster::ClusterConfig client_config(const ServiceConfig& config) {
  redis_cluster::ClusterConfig c;
  c.seeds = config.cluster.caps_store_seeds;
  c.user = config.cluster.caps_store_user;
  c.password = config.cluster.caps_store_password;
  // Impressions, reads and pending serves of one core share the client's bound.
  c.max_in_flight = 4 * config.max_cross_core_asks;
  return c;
}

caps::redis_store::RedisCapStoreSettings store_settings(const ServiceConfig& config) {
  caps::redis_store::RedisCapStoreSettings s;
  s.timeout_ns = absl::ToInt64Nanoseconds(config.cluster.caps_timeout);
  s.serve_window_s = absl::ToInt64Seconds(config.cluster.cap_serve_window);
  // A kept impression is applied again within the token's life plus this grace.
  s.identity_grace_s = absl::ToInt64Seconds(config.tracking_ttl);
  s.max_reads = config.max_cross_core_asks;
  s.max_impressions = config.max_cross_core_asks;
  s.max_pends = config.max_cross_core_asks;
  return s;
}

tracking::shared_impressions::SharedImpressionSettings impression_settings(const ServiceConfig& config,
                                                                          uint32_t core, int64_t start_ns) {
  tracking::shared_impressions::SharedImpressionSettings s;
  s.max_in_flight = config.max_cross_core_asks;
  const std::string seed = absl::StrCat(config.cluster.node_id, "/", core, "/", start_ns);
  s.attempt_seed = XXH3_64bits(seed.data(), seed.size());
  return s;
}

}  // namespace

ClusterCaps::ClusterCaps(runtime::Reactor& reactor, const ServiceConfig& config,
                         const tracking::impressions::AdCaps& ad_caps, tracking::events::EventLog& log,
                         runtime::CoreChannel& channel, runtime::AskPeers<caps::KeptNewsAsk>& kept_news)
    : client_(reactor, client_config(config)),
      kept_across_cores_(kept_, &channel, &kept_news, reactor.timers()),
      store_(client_, reactor.clock(), store_settings(config), kept_),
      impressions_(reactor.index(), store_, kept_, ad_caps, log, reactor, reactor.timers(),
                   impression_settings(config, reactor.index(), reactor.clock().wall_ns())) {}

ClusterCaps::~ClusterCaps() = default;

void ClusterCaps::start(const ServiceConfig& config, uint32_t core, int64_t now_s) {
  // The store recognises an identity until its token expires plus the grace (store_settings):
  // one older than that could count twice if applied, so it is left out, and said.
  const int64_t grace_s = absl::ToInt64Seconds(config.tracking_ttl);
  const tracking::shared_impressions::UnappliedScan scan =
      tracking::shared_impressions::scan_unapplied(config.state_dir, core, config.cores, now_s - grace_s,
                                                   now_s - grace_s - absl::ToInt64Seconds(config.tracking_ttl));
  for (const tracking::impressions::ImpressionNotice& notice : scan.unapplied) impressions_.keep(notice);
  if (!scan.unapplied.empty() || scan.expired > 0) {
    constexpr runtime::log::Logger kLog("caps");
    // Impressions left out are counted against no cap: worth a warning, not just a note.
    kLog.say(scan.expired > 0 ? runtime::log::Level::kWarn : runtime::log::Level::kInfo,
             "%zu unapplied impression(s) from the event log to apply again to the cap store; %llu too old to apply "
             "exactly once, left out",
             scan.unapplied.size(), static_cast<unsigned long long>(scan.expired));
  }
  kept_across_cores_.start();
  client_.start();
}

void ClusterCaps::register_metrics(runtime::MetricRegistry& metrics, uint32_t core) const {
  metrics.add(core, redis_cluster::kClusterMetricTable, client_.counters());
  metrics.add(core, caps::redis_store::kRedisCapMetricTable, store_.counters());
  metrics.add(core, tracking::shared_impressions::kSharedImpressionMetricTable, impressions_.counters());
}

std::unique_ptr<ClusterCaps> make_cluster_caps(runtime::Reactor& reactor, const ServiceConfig& config,
                                               const tracking::impressions::AdCaps& ad_caps,
                                               tracking::events::EventLog& log, runtime::CoreChannel& channel,
                                               runtime::AskPeers<caps::KeptNewsAsk>& kept_news) {
  if (!config.cluster.shared_caps()) return nullptr;
  return std::make_unique<ClusterCaps>(reactor, config, ad_caps, log, channel, kept_news);
}

}  // namespace service
