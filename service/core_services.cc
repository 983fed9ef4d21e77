#include "service/core_services.h"

#include "decision/explain/explain_metrics.h"
#include "decision/pacing/pacing_metrics.h"
#include "decision/pacing/redis_ledger/ledger_metrics.h"
#include "decision/vast_tag/vast_tag_metrics.h"
#include "http/content_coding/content_coding_metric_table.h"
#include "http/server_metric_table.h"
#include "tls/tls_metrics.h"
#include "http/client_address_metrics.h"
#include "proxy_protocol/proxy_metrics.h"
#include "runtime/check.h"
#include "runtime/one_way_post_metrics.h"
#include "runtime/log/log_metrics.h"
#include "runtime/log/logger.h"
#include "runtime/reactor_load_metrics.h"
#include "service/access_log/access_log_metrics.h"
#include "service/catalog_updates/nats_catalog_metrics.h"
#include "service/cross_core_kinds.h"
#include "service/cross_origin.h"
#include "service/process_metrics.h"
#include "tracking/core_keys/core_keys_metrics.h"
#include "tracking/endpoint/tracking_metrics.h"
#include "tracking/event_shipping/ship_metrics.h"
#include "tracking/events/event_log_metrics.h"
#include "tracking/events/log_files.h"
#include "tracking/state/snapshot_metrics.h"

namespace service {

namespace {
http::Router public_routes(http::Handler& decision, http::Handler& decision_preflight, http::Handler& tracking,
                           http::Handler& vast) {
  http::Router router;
  // Overload sheds decisions and tag fetches first, tracking calls (which carry money) last.
  // A preflight is shed as the decision it precedes would be.
  router.add(http::Method::kPost, "/v1/decision", "decision", decision, http::Shedding::kFirst);
  router.add(http::Method::kOptions, "/v1/decision", "decision_preflight", decision_preflight,
             http::Shedding::kFirst);
  // A tracking reply acknowledges money: it leaves once its line is written. A decision's
  // leaves with its lines (holding each for a write cost 0.85x the decision rate here).
  router.add(http::Method::kGet, "/v1/tracking", "tracking", tracking, http::Shedding::kLate,
             http::ReplyDurability::kAfterItsLines);
  // navigator.sendBeacon() can only POST: the same call, the token in the query, the body
  // (none is sent) ignored.
  router.add(http::Method::kPost, "/v1/tracking", "tracking_beacon", tracking, http::Shedding::kLate,
             http::ReplyDurability::kAfterItsLines);
  router.add(http::Method::kGet, "/v1/vast", "vast", vast, http::Shedding::kFirst);
  router.add_reply_headers("/v1/decision", http::cors_reply_headers(kDecisionCors));
  router.add_reply_headers("/v1/tracking", http::cors_reply_headers(kTrackingCors));
  router.add_reply_headers("/v1/vast", http::cors_reply_headers(kVastCors));
  return router;
}

http::Router admin_routes(http::Handler& health, http::Handler& ready, http::Handler& metrics,
                          http::Handler& catalog, http::Handler& explain, preview::PreviewSite& preview) {
  http::Router router;
  router.add(http::Method::kGet, "/healthz", "healthz", health);
  router.add(http::Method::kGet, "/readyz", "readyz", ready);
  router.add(http::Method::kGet, "/metrics", "metrics", metrics);
  router.add(http::Method::kPost, "/admin/catalog", "admin_catalog", catalog);
  router.add(http::Method::kPost, "/admin/explain", "admin_explain", explain);
  preview.add_routes(router);
  return router;
}

decision::endpoint::DecisionSettings decision_settings(const ProcessView& view) {
  decision::endpoint::DecisionSettings settings;
  settings.base_url = view.config.base_url;
  settings.tracking_ttl_s = absl::ToInt64Seconds(view.config.tracking_ttl);
  settings.vast_tag_ttl_s = absl::ToInt64Seconds(view.config.vast_tag_ttl);
  settings.seed = view.seed;
  settings.max_body_bytes = view.config.public_limits.max_body_bytes;
  settings.process_start_wall_ns = view.started_wall_ns;
  settings.geo = view.geo;
  if (view.config.cluster.shared_caps()) settings.kept_intakes = decision::endpoint::kKeptIntakesInClusterMode;
  return settings;
}

decision::vast_tag::VastTagSettings vast_tag_settings(const ProcessView& view) {
  decision::vast_tag::VastTagSettings settings;
  settings.base_url = view.config.base_url;
  settings.tracking_ttl_s = absl::ToInt64Seconds(view.config.tracking_ttl);
  return settings;
}

tracking::events::EventLogSettings event_log_settings(const ProcessView& view, uint32_t core) {
  tracking::events::EventLogSettings settings;
  settings.directory = tracking::events::core_dir(view.config.state_dir, core);
  settings.flush_interval_ms = absl::ToInt64Milliseconds(view.config.events_flush);
  settings.file_bytes = view.config.events_file_bytes;
  settings.to_nowhere = view.config.events_to_nowhere;
  return settings;
}

access_log::AccessLogSettings access_log_settings(const ProcessView& view, uint32_t core) {
  access_log::AccessLogSettings settings;
  settings.sample = view.config.access_log_sample;
  settings.directory = access_log::core_directory(view.config.state_dir, core);
  settings.flush_interval_ms = absl::ToInt64Milliseconds(view.config.events_flush);
  settings.file_bytes = view.config.events_file_bytes;
  return settings;
}

// Cluster mode, on the coordinating core: the goals' ledger on its cluster connections.
// A round is not on the request path: a second is long enough for any live cluster.
std::unique_ptr<decision::pacing::redis_ledger::RedisGoalLedger> make_goal_ledger(runtime::Reactor& reactor,
                                                                                  ClusterCaps* cluster) {
  if (cluster == nullptr || reactor.index() != 0) return nullptr;
  constexpr int64_t kLeaseTimeoutNs = 1'000'000'000;
  return std::make_unique<decision::pacing::redis_ledger::RedisGoalLedger>(cluster->client(), reactor.clock(),
                                                                           kLeaseTimeoutNs);
}

// The admin plane's transport: TLS with --admin-tls, else the reactor's own sockets.
runtime::SocketIo& admin_sockets(runtime::Reactor& reactor, TlsEdge* tls) {
  if (tls != nullptr && tls->admin_sockets() != nullptr) return *tls->admin_sockets();
  return reactor;
}

// Slots of each table visited per tick when reclaiming expired entries: 10 ticks a second
// reach every slot of a 15 M-entry partition in a few minutes, at tens of microseconds a tick.
constexpr uint32_t kSweepSlotsPerTick = 8192;
}  // namespace

CoreServices::CoreServices(runtime::Reactor& reactor, ProcessView& view, tracking::state::CoreState state)
    : reactor_(reactor),
      view_(view),
      catalog_(view.catalog),
      channel_(reactor),
      state_(std::move(state)),
      log_(reactor, reactor.timers(), reactor.clock(), event_log_settings(view, reactor.index()), state_.next_seq),
      answer_gate_(channel_, log_.writer(), reactor),
      // One wait per connection of the public server at most (http/connection.h).
      after_lines_(log_.writer(), reactor, size_t{view.config.public_limits.max_connections} + http::Server::kRefusalSlots),
      access_log_(reactor, reactor.timers(), reactor.clock(), reactor.index(), access_log_settings(view, reactor.index())),
      ad_caps_(view.catalog),
      impressions_(reactor.index(), *state_.dedup, *state_.caps, ad_caps_, log_, state_.counted_by_ad),
      cluster_(make_cluster_caps(reactor, view.config, ad_caps_, log_, channel_, view.kept_news_asks)),
      goal_ledger_(make_goal_ledger(reactor, cluster_.get())),
      routes_(channel_, view, state_, impressions_, cluster_.get(), goal_ledger_.get()),
      goals_(view.catalog),
      pacing_rounds_(pacing_, goals_, reactor.timers(), reactor.clock(), reactor.index(), view.config.cores,
                     absl::ToInt64Seconds(view.config.pacing_interval),
                     routes_.slice_budget(), decision::pacing::PacingLinks{&channel_, &view.pacing_asks, &swap_wait_}),
      keys_(*view.keys),
      decision_(reactor.clock(), reactor.index(), view.versions, keys_, decision_settings(view), view.catalog,
                routes_.decisions(), &log_, &pacing_),
      tracking_(reactor.clock(), reactor.index(), view.versions, keys_, routes_.impressions(), log_),
      snapshots_(reactor, reactor.timers(), channel_, reactor.clock(), view.config.state_dir, state_, log_,
                 absl::ToInt64Milliseconds(view.config.snapshot_interval)),
      vast_(reactor.clock(), keys_, vast_tag_settings(view), view.catalog),
      decision_preflight_(kDecisionCors),
      catalog_upload_(reactor.index(), view.uploads),
      explain_(reactor.clock(), reactor.index(), view.versions, decision_settings(view), view.catalog,
               routes_.explains(), &pacing_),
      public_router_(public_routes(decision_, decision_preflight_, tracking_, vast_)),
      admin_router_(admin_routes(guarded_health_, guarded_ready_, guarded_metrics_, guarded_catalog_upload_,
                                 guarded_explain_, preview_)),
      public_sockets_(reactor, view.config.public_limits.trusted_proxies),
      public_server_(reactor, public_sockets_, public_router_, view.config.public_limits),
      tls_(TlsEdge::make(reactor, view.config, public_router_, view.take_tls_context(reactor.index()))),
      admin_server_(reactor, admin_sockets(reactor, tls_.get()), admin_router_, view.config.admin_limits) {
  channel_.set_answer_gate(&answer_gate_);
  public_server_.set_reply_gate(&after_lines_);
  state_.caps->set_serve_window(absl::ToInt64Seconds(view.config.cluster.cap_serve_window));
  pacing_.set_goals(view.catalog->paced_goals);
  tracking_.set_min_impression_delay_ms(absl::ToInt64Milliseconds(view.config.min_impression_delay));
  impressions_.set_delivery_listener(&pacing_);
  if (cluster_) cluster_->impressions()->set_delivery_listener(&counted_by_ad_);
  if (reactor.index() == 0 && view.recovered_counted_by_ad != nullptr) {
    // The coordinating core starts from what every log has counted: in embedded mode the
    // goals' counts; in cluster mode the node's totals, which its first reports carry to the
    // ledger (it adds only what it was not told before: docs/pacing.md, "Across nodes").
    pacing_.restore(*view.recovered_counted_by_ad);
  }
  register_metrics();
}

void CoreServices::register_metrics() {
  runtime::MetricRegistry& metrics = view_.metrics;
  const uint32_t core = reactor_.index();
  metrics.add(core, kProcessMetricTable, view_);
  metrics.add(core, kCatalogMetricTable, catalog_in_force_);
  if (view_.nats_catalog != nullptr) metrics.add(core, kNatsCatalogMetricTable, *view_.nats_catalog);
  metrics.add(core, http::kServerMetricTable, public_server_.metrics(), R"(listener="public")");
  metrics.add(core, http::kServerMetricTable, admin_server_.metrics(), R"(listener="admin")");
  if (tls_ && tls_->server()) {
    metrics.add(core, http::kServerMetricTable, tls_->server()->metrics(), R"(listener="tls")");
  }
  metrics.add(core, http::content_coding::kContentCodingMetricTable, public_server_.content_codings(),
              R"(listener="public")");
  metrics.add(core, http::content_coding::kContentCodingMetricTable, admin_server_.content_codings(),
              R"(listener="admin")");
  if (tls_ && tls_->server()) {
    metrics.add(core, http::content_coding::kContentCodingMetricTable, tls_->server()->content_codings(),
                R"(listener="tls")");
  }
  metrics.add(core, decision::endpoint::kDecisionMetricTable, decision_.counters());
  metrics.add(core, decision::endpoint::kDecisionAskMetricTable, routes_.decision_asks());
  metrics.add(core, decision::endpoint::kPlacementMetricTable, placement_counts_);
  metrics.add(core, decision::pacing::kPacingMetricTable, pacing_);
  metrics.add(core, decision::explain::kExplainMetricTable, explain_.counters());
  metrics.add(core, decision::explain::kExplainAskMetricTable, routes_.explain_asks());
  metrics.add(core, tracking::endpoint::kTrackingMetricTable, tracking_.counters());
  metrics.add(core, tracking::endpoint::kImpressionAskMetricTable, routes_.impression_asks());
  metrics.add(core, tracking::endpoint::kTrackingCallMetricTable, tracking_.counters());
  metrics.add(core, decision::vast_tag::kVastTagMetricTable, vast_.counters());
  metrics.add(core, tracking::kCoreKeysMetricTable, keys_.gauges());
  routes_.register_metrics(metrics, core);
  metrics.add(core, tracking::state::kStateGaugeMetricTable, gauges_);
  metrics.add(core, tracking::events::kEventLogMetricTable, log_.counters());
  metrics.add(core, tracking::events::kEventLogHealthMetricTable, log_);
  metrics.add(core, tracking::state::kSnapshotMetricTable, snapshots_.counters());
  metrics.add(core, access_log::kAccessLogMetricTable, access_log_.counters());
  metrics.add(core, runtime::kReactorLoadMetricTable, reactor_.load());
  metrics.add(core, runtime::kOneWayPostMetricTable, reactor_.one_way_counters());
  metrics.add(core, runtime::log::kLogMetricTable, runtime::log::log_counters());
  metrics.add(core, runtime::log::kCoreLogMetricTable, runtime::log::this_core_log_counters());
  if (tls_ && tls_->counters()) metrics.add(core, tls::kTlsMetricTable, *tls_->counters(), R"(listener="tls")");
  metrics.add(core, proxy_protocol::kProxyMetricTable, public_sockets_.counters(), R"(listener="public")");
  if (tls_ && tls_->proxy_counters()) {
    metrics.add(core, proxy_protocol::kProxyMetricTable, *tls_->proxy_counters(), R"(listener="tls")");
  }
  metrics.add(core, http::kClientAddressMetricTable, public_server_.client_addresses(), R"(listener="public")");
  if (tls_ && tls_->server()) {
    metrics.add(core, http::kClientAddressMetricTable, tls_->server()->client_addresses(), R"(listener="tls")");
  }
  if (tls_ && tls_->admin_sockets()) {
    metrics.add(core, tls::kTlsMetricTable, tls_->admin_sockets()->counters(), R"(listener="admin")");
  }
  if (tls_) metrics.add(core, kTlsCertificateMetricTable, view_.tls_certificates);
  if (cluster_) cluster_->register_metrics(metrics, core);
  if (cluster_) {
    // Every core lists the same tables; only the coordinating core leases (the others' zeros).
    static const decision::pacing::redis_ledger::LedgerCounters kNoLeases;
    metrics.add(core, decision::pacing::redis_ledger::kLedgerMetricTable,
                goal_ledger_ ? goal_ledger_->counters() : kNoLeases);
  }
  if (view_.shipper != nullptr) {
    metrics.add(core, tracking::event_shipping::kShipCoreMetricTable, view_.shipper->core_counters(core));
    metrics.add(core, tracking::event_shipping::kShipperMetricTable, view_.shipper->counters());
  }
}

absl::Status CoreServices::start() {
  if (absl::Status opened = log_.start(); !opened.ok()) return opened;
  if (!log_.start_error().empty()) {
    constexpr runtime::log::Logger kEventLog("events");
    kEventLog.warn("%s: serving, unready until the event log can write", log_.start_error().c_str());
  }
  if (absl::Status opened = access_log_.start(); !opened.ok()) {
    constexpr runtime::log::Logger kAccessLog("access_log");
    kAccessLog.warn("access log: %s: serving, lines held until it can write", std::string(opened.message()).c_str());
  }
  access_log_.observe(public_server_, "public");
  access_log_.observe(admin_server_, "admin");
  if (tls_ && tls_->server()) access_log_.observe(*tls_->server(), "tls");
  snapshots_.start();
  reactor_.timers().schedule(sweeper_, 100);
  if (cluster_) cluster_->start(view_.config, reactor_.index(), reactor_.clock().wall_s());
  pacing_rounds_.start();
  return absl::OkStatus();
}

void CoreServices::Sweeper::on_expire() {
  CoreServices& c = owner_;
  const int64_t now_s = c.reactor_.clock().wall_s();
  c.state_.caps->sweep_step(now_s, kSweepSlotsPerTick);
  c.state_.dedup->sweep_step(now_s, kSweepSlotsPerTick);
  c.gauges_.cap_entries.set(c.state_.caps->entries());
  c.gauges_.cap_bytes.set(c.state_.caps->bytes());
  c.gauges_.cap_reclaimed.set(c.state_.caps->reclaimed());
  c.gauges_.dedup_entries.set(c.state_.dedup->entries());
  c.gauges_.dedup_bytes.set(c.state_.dedup->bytes());
  c.gauges_.dedup_reclaimed.set(c.state_.dedup->reclaimed());
  c.reactor_.timers().schedule(*this, 100);
}

void CoreServices::adopt(Publication& publication) {
  if (publication.catalog) {
    catalog_ = publication.catalog;
    decision_.set_catalog(catalog_);
    vast_.set_catalog(catalog_);
    ad_caps_.set_catalog(catalog_);
    goals_.set_catalog(catalog_);
    pacing_.set_goals(catalog_->paced_goals);
    explain_.set_catalog(catalog_);
    // Goals new here are allotted by a round at once, not at the next slice.
    if (!pacing_.every_goal_allotted()) pacing_rounds_.allot_new_goals();
  }
  if (publication.geoip_changed) {
    decision_.set_geoip(publication.geoip);
    explain_.set_geoip(publication.geoip);
  }
  if (!publication.codecs.empty()) {
    DECISIOND_CHECK(reactor_.index() < publication.codecs.size());
    std::unique_ptr<tracking::RingCodecs>& slot = publication.codecs[reactor_.index()];
    slot = keys_.adopt(std::move(slot));
  }
  if (!publication.tls_contexts.empty() && tls_) {
    DECISIOND_CHECK(reactor_.index() < publication.tls_contexts.size());
    tls_->adopt(std::move(publication.tls_contexts[reactor_.index()]));
  }
  if (publication.catalog) {
    swap_wait_.count_off_when_allotted(publication);
  } else {
    publication_adopted(publication);
  }
}

void CoreServices::listen(int public_fd, int admin_fd, int tls_fd) {
  if (public_fd >= 0) reactor_.listen(public_fd, public_server_);
  reactor_.listen(admin_fd, admin_server_);
  if (tls_fd >= 0 && tls_ && tls_->server()) reactor_.listen(tls_fd, *tls_->server());
}

void CoreServices::shut_down() {
  if (draining_) return;
  draining_ = true;
  pacing_rounds_.stop();
  reactor_.stop_listening();
  const bool https = tls_ && tls_->server();
  servers_draining_ = https ? 3 : 2;
  reactor_.timers().schedule(drain_deadline_, absl::ToInt64Milliseconds(view_.config.drain_timeout));
  public_server_.begin_drain([this] { server_drained(); });
  admin_server_.begin_drain([this] { server_drained(); });
  if (https) tls_->server()->begin_drain([this] { server_drained(); });
}

void CoreServices::server_drained() {
  if (--servers_draining_ == 0) {
    reactor_.timers().cancel(drain_deadline_);
    announce_drained();
  }
}

void CoreServices::announce_drained() {
  for (uint32_t core = 0; core < view_.cores.size(); ++core) {
    runtime::Message message;
    message.run = &CoreServices::run_peer_drained;
    message.pointer = view_.cores[core];
    reactor_.post_one_way(core, message);  // never refused (runtime/one_way_post.h)
  }
}

void CoreServices::run_peer_drained(runtime::Reactor&, const runtime::Message& message) {
  static_cast<CoreServices*>(message.pointer)->peer_drained();
}

void CoreServices::peer_drained() {
  if (++drained_peers_ < view_.cores.size()) return;
  // Cluster mode: impressions still waiting for the store are given up on now; their
  // unapplied lines, written ahead, make the next start apply them.
  if (cluster_) cluster_->stop();
  // Every accepted event reaches the disk before the core stops.
  log_.close([this] { access_log_.close([this] { reactor_.request_stop(); }); });
}

void CoreServices::DrainDeadline::on_expire() {
  owner_.public_server_.close_all();
  owner_.admin_server_.close_all();
  if (owner_.tls_ && owner_.tls_->server()) owner_.tls_->server()->close_all();
}

}  // namespace service
