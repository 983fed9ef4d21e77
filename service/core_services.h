#pragma once
// Everything one core serves: the public and admin routers, their handlers and servers.
// Built on the core's own thread; touched only by it (metrics are read by scrapes).
#include <functional>

#include "decision/endpoint/decision_handler.h"
#include "http/router.h"
#include "http/server.h"
#include "runtime/reactor.h"
#include "runtime/timer_wheel.h"
#include "service/admin_handlers.h"
#include "service/not_built_handler.h"
#include "service/process_view.h"

namespace service {

class CoreServices {
 public:
  CoreServices(runtime::Reactor& reactor, const ProcessView& view);

  void listen(int public_fd, int admin_fd);
  // Shutdown: stop accepting, finish in-flight requests, then stop the reactor; after
  // the drain timeout whatever is left is closed.
  void shut_down();

  const http::ServerMetrics& public_metrics() const { return public_server_.metrics(); }
  const http::ServerMetrics& admin_metrics() const { return admin_server_.metrics(); }
  const decision::endpoint::DecisionHandler& decisions() const { return decision_; }

 private:
  class DrainDeadline final : public runtime::Timer {
   public:
    explicit DrainDeadline(CoreServices& owner) : owner_(owner) {}
    void on_expire() override;

   private:
    CoreServices& owner_;
  };

  void server_drained();

  runtime::Reactor& reactor_;
  const ProcessView& view_;
  bool draining_ = false;

  decision::endpoint::DecisionHandler decision_;
  NotBuiltHandler tracking_{"GET /v1/tracking"};
  NotBuiltHandler vast_{"GET /v1/vast"};
  NotBuiltHandler catalog_reload_{"POST /admin/catalog"};
  NotBuiltHandler explain_{"POST /admin/explain"};
  HealthHandler health_;
  ReadyHandler ready_{draining_};
  MetricsHandler metrics_{view_, reactor_};

  http::Router public_router_;
  http::Router admin_router_;
  http::Server public_server_;
  http::Server admin_server_;
  int servers_draining_ = 0;
  DrainDeadline drain_deadline_{*this};
};

}  // namespace service
