#include "tests/integration/nats_cluster/nats_cluster_fixture.h"

#include <filesystem>

#include "tests/integration/nats_cluster/nats_monitor.h"
#include "tests/integration/redis_cluster/deadline_poll.h"
#include "tests/integration/redis_cluster/fixture_files.h"
#include "tests/integration/redis_cluster/loopback_ports.h"

namespace integration {

namespace {

// Client, cluster (routes) and monitoring ports of each server.
constexpr size_t kPortsPerServer = 3;
// Another process may take a picked port before nats-server binds it; then every server
// starts again on fresh ports, at most this many times in all.
constexpr int kStartAttempts = 3;
// A JetStream cluster of more servers than this would only slow a test down.
constexpr int kMaxServers = 7;
constexpr char kClusterName[] = "decisiond-test";
constexpr std::chrono::milliseconds kReadyPollInterval{50};

}  // namespace

NatsCluster::NatsCluster(NatsClusterOptions options) : options_(std::move(options)) { ok_ = create(); }

NatsCluster::~NatsCluster() { stop(); }

bool NatsCluster::create() {
  if (options_.servers < 1 || options_.servers > kMaxServers) {
    return fail("a NATS cluster of " + std::to_string(options_.servers) + " servers: 1 to " +
                std::to_string(kMaxServers) + " are supported");
  }
  root_dir_ = make_temp_dir("decisiond-nats-cluster");
  if (root_dir_.empty()) return fail("mkdtemp failed under " + std::filesystem::temp_directory_path().string());
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    bool port_taken = false;
    if (start_on_fresh_ports(&port_taken)) return wait_until_ready();
    if (!port_taken) return false;
    // Nothing of the failed attempt is kept: its servers stopped, their folders emptied.
    servers_.clear();
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(root_dir_, ignored)) {
      std::filesystem::remove_all(entry.path(), ignored);
    }
  }
  return false;  // error_ holds the last attempt's logs
}

bool NatsCluster::start_on_fresh_ports(bool* port_taken) {
  const size_t count = static_cast<size_t>(options_.servers);
  const std::vector<uint16_t> ports = free_loopback_ports(count * kPortsPerServer);
  if (ports.empty()) return fail("no free loopback ports");
  std::vector<uint16_t> route_ports;
  for (size_t i = 0; i < count; ++i) route_ports.push_back(ports[i * kPortsPerServer + 1]);
  std::vector<int> all;
  for (size_t i = 0; i < count; ++i) {
    NatsServerSettings settings;
    settings.name = "n" + std::to_string(i);
    settings.dir = root_dir_ + "/" + settings.name;
    settings.cluster_name = kClusterName;
    settings.ports = {ports[i * kPortsPerServer], ports[i * kPortsPerServer + 1], ports[i * kPortsPerServer + 2]};
    settings.route_ports = route_ports;
    settings.user = options_.user;
    settings.password = options_.password;
    servers_.push_back(std::make_unique<NatsServerProcess>(std::move(settings)));
    all.push_back(static_cast<int>(i));
  }
  return launch_and_wait_up(all, port_taken);
}

bool NatsCluster::launch_and_wait_up(const std::vector<int>& indices, bool* port_taken) {
  *port_taken = false;
  // All launched before any is waited for: each one's start overlaps the others'.
  for (const int i : indices) {
    if (!servers_[i]->launch()) return fail(servers_[i]->error());
  }
  for (const int i : indices) {
    if (!servers_[i]->wait_until_up(kNatsServerUpTimeout, port_taken)) return fail(servers_[i]->error());
  }
  return true;
}

std::string NatsCluster::client_url() const {
  std::string url = "nats://";
  for (size_t i = 0; i < servers_.size(); ++i) {
    url += (i == 0 ? "" : ",") + std::string("127.0.0.1:") + std::to_string(servers_[i]->settings().ports.client);
  }
  return url;
}

std::vector<std::string> NatsCluster::server_urls() const {
  std::vector<std::string> urls;
  for (const auto& server : servers_) {
    urls.push_back("nats://127.0.0.1:" + std::to_string(server->settings().ports.client));
  }
  return urls;
}

std::vector<uint16_t> NatsCluster::ports() const {
  std::vector<uint16_t> out;
  for (const auto& server : servers_) out.push_back(server->settings().ports.client);
  return out;
}

uint16_t NatsCluster::monitor_port(int index) const {
  return index >= 0 && static_cast<size_t>(index) < servers_.size() ? servers_[index]->settings().ports.monitor : 0;
}

std::string NatsCluster::server_name(int index) const {
  return index >= 0 && static_cast<size_t>(index) < servers_.size() ? servers_[index]->settings().name : "";
}

std::optional<int> NatsCluster::index_of(const std::string& name) const {
  for (size_t i = 0; i < servers_.size(); ++i) {
    if (servers_[i]->settings().name == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

bool NatsCluster::running(int index) const {
  return index >= 0 && static_cast<size_t>(index) < servers_.size() && servers_[index]->running();
}

pid_t NatsCluster::pid(int index) const { return running(index) ? servers_[index]->pid() : -1; }

bool NatsCluster::valid_index(int index, const char* caller) {
  if (index >= 0 && static_cast<size_t>(index) < servers_.size()) return true;
  return fail(std::string(caller) + ": no server " + std::to_string(index) + " (the cluster has " +
              std::to_string(servers_.size()) + ")");
}

bool NatsCluster::kill_server(int index, int signal) {
  if (!valid_index(index, "kill_server")) return false;
  NatsServerProcess& server = *servers_[index];
  if (!server.running()) return fail("kill_server: " + server.settings().name + " is not running");
  if (!server.signal(signal)) return fail(server.error());
  return true;
}

bool NatsCluster::restart_server(int index) { return restart_servers({index}); }

bool NatsCluster::restart_servers(const std::vector<int>& indices) {
  for (const int i : indices) {
    if (!valid_index(i, "restart_servers")) return false;
    servers_[i]->stop();  // a restart of a running server stops it first
  }
  bool port_taken = false;
  if (!launch_and_wait_up(indices, &port_taken)) return false;
  return wait_until_ready();
}

std::string NatsCluster::readiness_problem() {
  // /jsz first, /healthz last: a failed health check is logged by the server as a warning,
  // and polling it from the start would fill the log tails that explain a failure.
  const int expected = static_cast<int>(servers_.size());
  std::string leader;
  for (const auto& server : servers_) {
    const std::string& name = server->settings().name;
    if (!server->running()) return name + " is not running";
    const MonitorReply jsz = monitor_get(server->settings().ports.monitor, "/jsz");
    if (!jsz.answered) return name + ": " + jsz.error;
    std::string why;
    const auto view = parse_meta_group(jsz.body, &why);
    if (!view) return name + ": " + why;
    if (view->leader.empty()) return name + " knows no JetStream meta leader";
    if (view->cluster_size != expected) {
      return name + " counts " + std::to_string(view->cluster_size) + " JetStream peers, not " + std::to_string(expected);
    }
    if (!leader.empty() && view->leader != leader) return "the meta leader is " + leader + " or " + view->leader;
    leader = view->leader;
  }
  if (const std::string problem = meta_leader_problem(leader); !problem.empty()) return problem;
  for (const auto& server : servers_) {
    const MonitorReply health = monitor_get(server->settings().ports.monitor, "/healthz");
    if (!health.answered) return server->settings().name + ": " + health.error;
    if (health.status != 200) {
      return server->settings().name + ": /healthz " + std::to_string(health.status) + " " + health.body;
    }
  }
  return {};
}

std::string NatsCluster::meta_leader_problem(const std::string& leader) {
  const int expected = static_cast<int>(servers_.size());
  const std::optional<int> leader_index = index_of(leader);
  if (!leader_index) return "the meta leader " + leader + " is none of the fixture's servers";
  // Only the leader's /jsz lists the followers with whether each is current.
  const MonitorReply jsz = monitor_get(monitor_port(*leader_index), "/jsz");
  std::string why;
  const auto view = jsz.answered ? parse_meta_group(jsz.body, &why) : std::nullopt;
  if (!view) return leader + ": " + (jsz.answered ? why : jsz.error);
  if (view->leader != leader) return leader + " is no longer the meta leader";
  int current = 0;
  for (const MetaGroupPeer& peer : view->followers) {
    if (!index_of(peer.name)) return "the meta leader " + leader + " has a follower " + peer.name + " of no server";
    if (peer.offline || !peer.current) return "the meta leader " + leader + " sees " + peer.name + " behind or offline";
    ++current;
  }
  if (current != expected - 1) {
    return "the meta leader " + leader + " has " + std::to_string(current) + " current followers, not " +
           std::to_string(expected - 1);
  }
  return {};
}

bool NatsCluster::wait_until_ready(std::chrono::milliseconds timeout) {
  const PollResult waited = poll_until_settled(timeout, kReadyPollInterval, [&](bool*) { return readiness_problem(); });
  if (waited.settled) return true;
  return fail("waited " + std::to_string(timeout.count()) + " ms for the NATS cluster to be whole; still: " +
              waited.last_problem);
}

bool NatsCluster::fail(const std::string& what) {
  error_ = what + "\nlogs (" + root_dir_ + "):\n";
  for (const auto& server : servers_) error_ += server->log_tail();
  return false;
}

void NatsCluster::stop() {
  servers_.clear();  // each one's destructor stops its process
  if (!root_dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(root_dir_, ignored);
    root_dir_.clear();
  }
}

}  // namespace integration
