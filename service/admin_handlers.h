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

// 200 when this core serves traffic; 503 once it drains for shutdown, while a catalog from
// NATS has no revision served yet (the empty catalog the node starts with), while a
// delivery goal of the catalog has no allotment yet on some core (before the pacing round
// at start or at a swap has finished: its ad would not serve, docs/pacing.md), and while any
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

// Every core's metric tables (ProcessView::metrics) in the Prometheus text format; the
// process-wide families (the catalog in force) as the answering core sees them.
class MetricsHandler final : public http::Handler {
 public:
  MetricsHandler(const ProcessView& view, const runtime::Reactor& reactor) : view_(view), reactor_(reactor) {}
  void handle(const http::Request&, http::Response& response) override;

 private:
  const ProcessView& view_;
  const runtime::Reactor& reactor_;
};

}  // namespace service
