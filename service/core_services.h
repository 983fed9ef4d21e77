#pragma once
// Everything one core serves: the public and admin routers, their handlers and servers.
// Built on the core's own thread; touched only by it (metrics are read by scrapes).
#include <functional>

#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/decision_metrics.h"
#include "decision/vast_tag/vast_tag_handler.h"
#include "runtime/reactor_channel.h"
#include "service/catalog_ad_caps.h"
#include "service/catalog_goals.h"
#include "decision/pacing/core_pacing.h"
#include "decision/pacing/pacing_rounds.h"
#include "decision/pacing/redis_ledger/redis_goal_ledger.h"
#include "tracking/core_keys/core_keys.h"
#include "tracking/impressions/counted_by_ad_keeper.h"
#include "tracking/impressions/impression_counter.h"
#include "tracking/endpoint/tracking_handler.h"
#include "tracking/events/event_log.h"
#include "tracking/state/core_state.h"
#include "tracking/state/snapshot_writer.h"
#include "tracking/state/state_gauges.h"
#include "http/cors.h"
#include "http/router.h"
#include "http/server.h"
#include "proxy_protocol/proxy_sockets.h"
#include "runtime/reactor.h"
#include "runtime/timer_wheel.h"
#include "service/admin_guard.h"
#include "service/access_log/access_log.h"
#include "service/admin_handlers.h"
#include "service/catalog_updates/catalog_metrics.h"
#include "service/catalog_updates/catalog_upload_handler.h"
#include "service/catalog_updates/publication.h"
#include "runtime/after_lines_written.h"
#include "runtime/answer_gate.h"
#include "service/catalog_updates/swap_allotment_wait.h"
#include "service/cluster/cluster_caps.h"
#include "service/user_state/state_routes.h"
#include "service/tls/tls_edge.h"
#include "service/preview/preview_site.h"
#include "service/process_view.h"

namespace service {

class CoreServices {
 public:
  CoreServices(runtime::Reactor& reactor, ProcessView& view, tracking::state::CoreState state);

  // Opens the event log and starts the background work (snapshots, reclaiming expired
  // state); at set-up, before serving.
  absl::Status start();
  // public_fd -1: no plain listener (--listen=none); tls_fd -1: no TLS listener.
  void listen(int public_fd, int admin_fd, int tls_fd);
  // Shutdown: stop accepting, finish in-flight requests, then stop the reactor; after
  // the drain timeout whatever is left is closed.
  void shut_down();
  // A catalog, GeoIP or key update, run on this core between two requests: every handler
  // switches at once, so no request sees two catalogs or two key rings. New codecs are
  // taken from this core's slot of the publication, which gets the previous ones back.
  // Counts this core off (publication_adopted): a catalog once every goal of it holds an
  // allotment here (swap_allotment_wait.h), anything else at once.
  void adopt(Publication& publication);

  // For /readyz on any core.
  const tracking::events::EventLog& event_log() const { return log_; }
  // Relaxed, as the log's health: whether this core's book allots every goal it serves.
  bool every_goal_allotted() const { return pacing_.every_goal_allotted(); }

 private:
  class DrainDeadline final : public runtime::Timer {
   public:
    explicit DrainDeadline(CoreServices& owner) : owner_(owner) {}
    void on_expire() override;

   private:
    CoreServices& owner_;
  };

  // Every tick: reclaims a bounded number of slots of expired caps and dedup entries, and
  // refreshes the gauges. Never a stop-the-world sweep.
  class Sweeper final : public runtime::Timer {
   public:
    explicit Sweeper(CoreServices& owner) : owner_(owner) {}
    void on_expire() override;

   private:
    CoreServices& owner_;
  };

  // This core's (table, object) pairs for /metrics, in page order: one place, so every core
  // registers the same list (runtime/metric_text.h checks it).
  void register_metrics();
  void server_drained();
  // Shutdown, once this core's connections are gone: tells every core, and stops only when
  // every core has said so. A peer's notice of being drained comes after everything it sent
  // before (its queue is FIFO, and a one-way post never overtakes what was posted before
  // it), so no impression it acknowledged is still on its way here.
  void announce_drained();
  void peer_drained();
  static void run_peer_drained(runtime::Reactor& here, const runtime::Message& message);

  runtime::Reactor& reactor_;
  ProcessView& view_;
  bool draining_ = false;
  std::shared_ptr<const decision::endpoint::ServedCatalog> catalog_;

  runtime::ReactorChannel channel_;
  tracking::state::CoreState state_;
  tracking::events::EventLog log_;
  // Answers to other cores' asks, and public replies, leave once the lines they
  // acknowledge are written here.
  runtime::AnswerGate answer_gate_;
  runtime::AfterLinesWritten after_lines_;
  access_log::AccessLog access_log_;
  CatalogAdCaps ad_caps_;
  tracking::impressions::ImpressionCounter impressions_;
  std::unique_ptr<ClusterCaps> cluster_;  // cluster mode only (--caps-store=redis://...)
  // Cluster mode, core 0: where this node shares its delivery goals with the others.
  std::unique_ptr<decision::pacing::redis_ledger::RedisGoalLedger> goal_ledger_;
  // The one place this core's mode is chosen: how every handler below reaches users' state.
  StateRoutes routes_;
  // This core's share of the delivery goals, and the rounds that carry tallies and
  // allotments between it and the coordinating core (docs/pacing.md).
  decision::pacing::CorePacing pacing_;
  // Cluster mode: the store's counted impressions into the durable counts, then pacing_.
  tracking::impressions::CountedByAdKeeper counted_by_ad_{state_.counted_by_ad, pacing_};
  SwapAllotmentWait swap_wait_{pacing_};
  CatalogGoals goals_;
  decision::pacing::PacingRounds pacing_rounds_;
  tracking::CoreKeys keys_;  // what seals and opens tokens and tags, for every handler below
  decision::endpoint::DecisionHandler decision_;
  tracking::endpoint::TrackingHandler tracking_;
  tracking::state::SnapshotWriter snapshots_;
  Sweeper sweeper_{*this};
  tracking::state::StateGauges gauges_;
  decision::vast_tag::VastTagHandler vast_;
  http::CorsPreflightHandler decision_preflight_;
  CatalogUploadHandler catalog_upload_;
  decision::explain::ExplainHandler explain_;
  HealthHandler health_;
  ReadyHandler ready_{draining_, view_};
  MetricsHandler metrics_{view_, reactor_};
  AdminGuard guarded_health_{view_.config.admin_token, AdminGuard::Access::kRead, health_};
  AdminGuard guarded_ready_{view_.config.admin_token, AdminGuard::Access::kRead, ready_};
  AdminGuard guarded_metrics_{view_.config.admin_token, AdminGuard::Access::kRead, metrics_};
  AdminGuard guarded_catalog_upload_{view_.config.admin_token, AdminGuard::Access::kWrite, catalog_upload_};
  AdminGuard guarded_explain_{view_.config.admin_token, AdminGuard::Access::kWrite, explain_};
  preview::PreviewSite preview_{view_.config.admin_token, view_.config.base_url};

  http::Router public_router_;
  http::Router admin_router_;
  // The plain listener's client addresses: the TCP peer, or a trusted balancer's PROXY header.
  proxy_protocol::ProxySockets public_sockets_;
  http::Server public_server_;
  // --tls-listen, --admin-tls: this core's TLS; null without either. Before the admin
  // server, which it may carry.
  std::unique_ptr<TlsEdge> tls_;
  http::Server admin_server_;
  // What the catalog and per-placement families read (their tables' object types).
  CatalogInForce catalog_in_force_{catalog_, view_.updates};
  decision::endpoint::PlacementCounts placement_counts_{decision_.counters(), view_.placement_labels};
  int servers_draining_ = 0;
  DrainDeadline drain_deadline_{*this};
  uint32_t drained_peers_ = 0;  // cores that told this one
};

}  // namespace service
