#pragma once
// The admin plane's read side: liveness, readiness and Prometheus metrics.
#include "http/router.h"
#include "runtime/reactor.h"
#include "service/process_view.h"

namespace service {

// 200 while the process runs its loops.
class HealthHandler final : public http::Handler {
 public:
  void handle(const http::Request&, http::Response& response) override;
};

// 200 when this core serves traffic; 503 once it drains for shutdown.
class ReadyHandler final : public http::Handler {
 public:
  explicit ReadyHandler(const bool& draining) : draining_(draining) {}
  void handle(const http::Request&, http::Response& response) override;

 private:
  const bool& draining_;
};

class MetricsHandler final : public http::Handler {
 public:
  MetricsHandler(const ProcessView& view, const runtime::Reactor& reactor)
      : view_(view), reactor_(reactor) {}
  void handle(const http::Request&, http::Response& response) override;

 private:
  const ProcessView& view_;
  const runtime::Reactor& reactor_;
};

}  // namespace service
