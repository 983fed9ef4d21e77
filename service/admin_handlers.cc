#include "service/admin_handlers.h"

#include "absl/strings/str_cat.h"
#include "http/error_body.h"
#include "http/error_codes.h"
#include "service/core_services.h"
#include "runtime/metric_text.h"

namespace service {

void HealthHandler::handle(const http::Request&, http::Response& response) {
  response.set_text(200, "ok\n");
}

void ReadyHandler::handle(const http::Request&, http::Response& response) {
  if (draining_) {
    http::set_error(response, 503, http::error_code::kOverloaded, "shutting down");
    return;
  }
  // A node with a NATS catalog serves an empty one until its first revision is built.
  if (view_.nats_catalog != nullptr && view_.nats_catalog->wait() != CatalogWait::kNone) {
    http::set_error(response, 503, http::error_code::kOverloaded,
                    absl::StrCat("catalog ", view_.nats_catalog->describe(), ": ", wait_text(view_.nats_catalog->wait())));
    return;
  }
  for (const CoreServices* core : view_.cores) {
    // A relaxed atomic of that core's pacing book: a read, not cross-core work.
    if (!core->every_goal_allotted()) {
      http::set_error(response, 503, http::error_code::kOverloaded,
                      "pacing: a delivery goal has no allotment yet (the round at start or at a catalog swap is under way)");
      return;
    }
  }
  for (const CoreServices* core : view_.cores) {
    // healthy() is a relaxed atomic of that core's log: a read, not cross-core work.
    if (!core->event_log().healthy()) {
      http::set_error(response, 503, http::error_code::kOverloaded, "event log: the disk refuses writes; events are held in memory");
      return;
    }
  }
  response.set_text(200, "ready\n");
}

void MetricsHandler::handle(const http::Request&, http::Response& response) {
  response.set_status(200);
  response.set_content_type("text/plain; version=0.0.4; charset=utf-8");
  runtime::render_metrics(view_.metrics, reactor_.index(), reactor_.clock().wall_s(), response.body());
}

}  // namespace service
