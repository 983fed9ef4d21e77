#pragma once
// What the admin plane of any core may read about the whole process. Filled before the
// cores start serving (each core writes its own slot before the start barrier) and never
// changed after, except for counters and update stats, which are single-writer, and the
// upload queue, which has its own lock.
#include <cstdint>
#include <string>
#include <vector>

#include "decision/endpoint/decision_ask.h"
#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/explain/explain_ask.h"
#include "decision/explain/explain_handler.h"
#include "decision/pacing/pacing_ask.h"
#include "decision/targeting/rules/targeting_rule.h"
#include "api_versions/version_table.h"
#include "caps/kept_across_cores.h"
#include "http/server_metrics.h"
#include "runtime/cross_core_asks.h"
#include "runtime/metric_source.h"
#include "service/catalog_updates/nats_catalog_source.h"
#include "service/catalog_updates/update_stats.h"
#include "service/catalog_updates/upload_queue.h"
#include "service/flags.h"
#include "tracking/endpoint/tracking_handler.h"
#include "tracking/impression_sink/impression_ask.h"
#include "tracking/event_shipping/event_shipper.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/state/core_state.h"
#include "service/tls/tls_certificates_in_force.h"
#include "tls/server_context.h"

namespace service {

class CoreServices;

struct ProcessView {
  ProcessView(const ServiceConfig& config, const api_versions::VersionTable& versions)
      : config(config),
        versions(versions),
        cores(config.cores, nullptr),
        decision_asks(config.cores),
        impression_asks(config.cores),
        explain_asks(config.cores),
        pacing_asks(config.cores),
        kept_news_asks(config.cores),
        metrics(config.cores) {}

  const ServiceConfig& config;
  const api_versions::VersionTable& versions;  // the lifecycle table in force
  uint64_t seed = 0;  // of the per-core random generators: --seed, or drawn at start
  decision::targeting::GeoSources geo;  // owned by main, loaded before the cores start
  std::vector<CoreServices*> cores;
  // Every core's end of each kind of cross-core ask (service/cross_core_kinds.h); each core
  // joins its own slot while it is set up, before any core serves.
  runtime::AskPeers<decision::endpoint::DecisionAsk> decision_asks;
  runtime::AskPeers<tracking::impression_sink::ImpressionAsk> impression_asks;
  runtime::AskPeers<decision::explain::ExplainAsk> explain_asks;
  runtime::AskPeers<decision::pacing::PacingAsk> pacing_asks;
  runtime::AskPeers<caps::KeptNewsAsk> kept_news_asks;  // cluster mode only
  // --tls-listen: each core's OpenSSL contexts, loaded by main (one per core: no SSL_CTX is
  // shared between threads); each core takes its own during set-up. Empty without TLS.
  std::vector<std::unique_ptr<tls::ServerContext>> tls_contexts;
  std::unique_ptr<tls::ServerContext> take_tls_context(uint32_t core) {
    return core < tls_contexts.size() ? std::move(tls_contexts[core]) : nullptr;
  }
  // What they serve, for /metrics; set by main and SIGHUP's reloads.
  TlsCertificatesInForce tls_certificates;
  // Rebuilt at start by recovery; each core takes its own during set-up.
  std::vector<tracking::state::CoreState>* recovered = nullptr;
  // What every log has counted by ad (recovery): the delivery goals' start (docs/pacing.md).
  const tracking::impressions::CountedByAd* recovered_counted_by_ad = nullptr;
  int64_t started_wall_s = 0;
  int64_t started_wall_ns = 0;
  std::string io_uring_mode;
  // The catalog the cores start with; released once they serve (main resets it), so an
  // update can free it. Later catalogs reach each core by publication
  // (catalog_updates/publication.h): a core reads its own, never this.
  std::shared_ptr<const decision::endpoint::ServedCatalog> catalog;
  std::string catalog_source;
  // The tracking and VAST tag keys the cores start with (owned by main); null once they
  // serve. Each core derives its codecs from them at set-up; later rings reach each core
  // as codecs, by publication (tracking/core_keys/core_keys.h).
  const tracking::KeyRing* keys = nullptr;
  // --catalog=nats://...: the source (owned by main), read by /readyz and /metrics; null
  // for a file.
  const NatsCatalogSource* nats_catalog = nullptr;
  // The placement keys metrics name (owned by main, filled by catalog builds on the main
  // thread, read by scrapes on any core).
  decision::endpoint::PlacementLabels* placement_labels = nullptr;
  // Catalog uploads on their way to the update loop, and what it reports back.
  UploadQueue uploads;
  UpdateStats updates;
  // The event shipper of --events-sink (owned by main), or null; each core registers its
  // metrics.
  const tracking::event_shipping::EventShipper* shipper = nullptr;
  // What each core exports on /metrics, in page order; each core fills its own list during
  // set-up (CoreServices::register_metrics), before any core serves.
  runtime::MetricRegistry metrics;
};

}  // namespace service
