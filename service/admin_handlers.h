#pragma once
// The admin plane's read side: liveness, readiness and Prometheus metrics.
#include "http/router.h"
#include "runtime/reactor.h"
#include "service/process_view.h"

namespace service {

class CoreServices;

// 200 while the process runs its loops.
class HealthHandler final : public http::Handler {
 public:
  void handle(const http::Request&, http::Response& response) override;
};

// 200 when this core serves traffic; 503 once it drains for shutdown, and while any
// core's event log cannot write (the disk refuses): decisions and impressions are still
// served then, but their events pile up in memory, so a balancer should prefer another node.
class ReadyHandler final : public http::Handler {
 public:
  ReadyHandler(const bool& draining, const ProcessView& view) : draining_(draining), view_(view) {}
  void handle(const http::Request&, http::Response& response) override;

 private:
  const bool& draining_;
  const ProcessView& view_;
};

class MetricsHandler final : public http::Handler {
 public:
  // core: the core that answers, whose catalog the page reports.
  MetricsHandler(const ProcessView& view, const runtime::Reactor& reactor, const CoreServices& core)
      : view_(view), reactor_(reactor), core_(core) {}
  void handle(const http::Request&, http::Response& response) override;

 private:
  const ProcessView& view_;
  const runtime::Reactor& reactor_;
  const CoreServices& core_;
};

}  // namespace service
