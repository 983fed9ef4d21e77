#include "service/core_services.h"

namespace service {

namespace {
http::Router public_routes(http::Handler& decision, http::Handler& tracking, http::Handler& vast) {
  http::Router router;
  router.add(http::Method::kPost, "/v1/decision", "decision", decision);
  router.add(http::Method::kGet, "/v1/tracking", "tracking", tracking);
  router.add(http::Method::kGet, "/v1/vast", "vast", vast);
  return router;
}

http::Router admin_routes(http::Handler& health, http::Handler& ready, http::Handler& metrics,
                          http::Handler& catalog, http::Handler& explain) {
  http::Router router;
  router.add(http::Method::kGet, "/healthz", "healthz", health);
  router.add(http::Method::kGet, "/readyz", "readyz", ready);
  router.add(http::Method::kGet, "/metrics", "metrics", metrics);
  router.add(http::Method::kPost, "/admin/catalog", "admin_catalog", catalog);
  router.add(http::Method::kPost, "/admin/explain", "admin_explain", explain);
  return router;
}

decision::endpoint::DecisionSettings decision_settings(const ProcessView& view) {
  decision::endpoint::DecisionSettings settings;
  settings.base_url = view.config.base_url;
  settings.tracking_ttl_s = absl::ToInt64Seconds(view.config.tracking_ttl);
  settings.seed = view.seed;
  settings.max_body_bytes = view.config.public_limits.max_body_bytes;
  settings.process_start_wall_ns = view.started_wall_ns;
  settings.geo = view.geo;
  return settings;
}
}  // namespace

CoreServices::CoreServices(runtime::Reactor& reactor, const ProcessView& view)
    : reactor_(reactor),
      view_(view),
      decision_(reactor.clock(), reactor.index(), view.versions, view.keys, decision_settings(view),
                view.catalog),
      public_router_(public_routes(decision_, tracking_, vast_)),
      admin_router_(admin_routes(health_, ready_, metrics_, catalog_reload_, explain_)),
      public_server_(reactor, public_router_, view.config.public_limits),
      admin_server_(reactor, admin_router_, view.config.admin_limits) {}

void CoreServices::listen(int public_fd, int admin_fd) {
  reactor_.listen(public_fd, public_server_);
  reactor_.listen(admin_fd, admin_server_);
}

void CoreServices::shut_down() {
  if (draining_) return;
  draining_ = true;
  reactor_.stop_listening();
  servers_draining_ = 2;
  reactor_.timers().schedule(drain_deadline_, absl::ToInt64Milliseconds(view_.config.drain_timeout));
  public_server_.begin_drain([this] { server_drained(); });
  admin_server_.begin_drain([this] { server_drained(); });
}

void CoreServices::server_drained() {
  if (--servers_draining_ == 0) {
    reactor_.timers().cancel(drain_deadline_);
    reactor_.request_stop();
  }
}

void CoreServices::DrainDeadline::on_expire() {
  owner_.public_server_.close_all();
  owner_.admin_server_.close_all();
}

}  // namespace service
