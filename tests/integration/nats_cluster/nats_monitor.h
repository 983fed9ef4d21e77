#pragma once
// What a nats-server says on its HTTP monitoring port, as the NATS cluster fixture reads it
// to know when a server is up and when the cluster is whole.
//   GET /healthz?js-enabled-only=true  200 once the server accepts clients with JetStream on;
//                                      nothing about the cluster.
//   GET /healthz                       200 once the server also has a JetStream meta leader,
//                                      is current with it, and every stream and consumer it
//                                      holds a replica of has caught up (503 with the reason
//                                      until then).
//   GET /jsz                           meta_cluster: the meta group's leader and size; on the
//                                      leader only, its followers with current and offline.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace integration {

// A monitoring request on loopback answers at once or the server is stopped or paused.
inline constexpr std::chrono::milliseconds kNatsMonitorRequestTimeout{2000};

struct MonitorReply {
  bool answered = false;  // an HTTP reply came back
  long status = 0;
  std::string body;
  std::string error;  // curl's reason when not answered
};

MonitorReply monitor_get(uint16_t monitor_port, const std::string& path_and_query);

struct MetaGroupPeer {
  std::string name;
  bool current = false;
  bool offline = false;
};

struct MetaGroupView {
  std::string leader;  // empty while there is none
  int cluster_size = 0;
  std::vector<MetaGroupPeer> followers;  // only in the leader's own view
};

// The meta_cluster object of a /jsz body; nullopt (and *why) when it is not there.
std::optional<MetaGroupView> parse_meta_group(const std::string& jsz_body, std::string* why);

}  // namespace integration
