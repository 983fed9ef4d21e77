#include "service/events_sink.h"

#include "tracking/event_shipping/message_id.h"

namespace service {

namespace {
// Message ids the stream remembers. It must outlast what may be in flight when a publish is
// sent again: a reconnection or a restart reads back what the stream holds before publishing
// again, so only messages still on their way to the stream's leader meanwhile (a few
// seconds at worst) rely on it (docs/events.md "Duplicate window").
constexpr std::chrono::seconds kDuplicateWindow{120};
}  // namespace

std::unique_ptr<tracking::event_shipping::EventShipper> make_event_shipper(const ServiceConfig& config) {
  const EventsSinkSettings& sink = config.events_sink;
  if (!sink.enabled()) return nullptr;
  tracking::event_shipping::ShipperSettings s;
  s.state_dir = config.state_dir;
  s.node_id = config.cluster.node_id;
  s.cores = config.cores;
  s.sink.connection.servers = sink.servers;
  s.sink.connection.credentials = {sink.user, sink.password, sink.creds_file};
  s.sink.connection.client_name = "decisiond " + config.cluster.node_id;
  s.sink.stream.name = sink.stream;
  s.sink.stream.subjects = {std::string(tracking::event_shipping::kStreamSubjects)};
  s.sink.stream.replicas = sink.replicas;
  s.sink.stream.duplicate_window = kDuplicateWindow;
  s.sink.max_pending = s.max_unacknowledged;
  s.run.max_lines = sink.run_lines;
  s.run.max_bytes = sink.run_bytes;
  s.run.wait_ms = absl::ToInt64Milliseconds(sink.run_wait);
  s.retention.retain_s = absl::ToInt64Seconds(sink.retain);
  // Start-up's scan for unapplied impressions (cluster mode) reads files written within
  // two tracking TTLs (service/cluster/cluster_caps.cc).
  s.retention.keep_written_within_s = 2 * absl::ToInt64Seconds(config.tracking_ttl);
  return std::make_unique<tracking::event_shipping::EventShipper>(std::move(s));
}

}  // namespace service
