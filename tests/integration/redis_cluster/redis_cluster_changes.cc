// What tests do to a running cluster (kill, fail over, restart, move slots, stop) and the
// agreement every change is waited for.
#include <signal.h>

#include <algorithm>
#include <filesystem>

#include "tests/integration/redis_cluster/child_command.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {

namespace {

// Bounds the key-moving loop of migrate_slot_finish (100 keys a MIGRATE).
constexpr int kMigrateBatchesMax = 10000;

const NodeLine* line_of_myself(const std::vector<NodeLine>& view) {
  for (const NodeLine& line : view) {
    if (line.has_flag("myself")) return &line;
  }
  return nullptr;
}

}  // namespace

// Empty when this node is settled; else what is not. owners gets its view of the topology.
std::string RedisCluster::node_problem(RedisNode& node, std::string* owners) {
  const std::string at = "port " + std::to_string(node.port()) + ": ";
  const CliReply info = cli_.run(node.port(), {"CLUSTER", "INFO"});
  if (!info) return at + info.error;
  if (info_field(info.out, "cluster_state") != "ok") return at + "cluster_state:" + info_field(info.out, "cluster_state");
  if (info_field(info.out, "cluster_slots_ok") != std::to_string(kClusterSlots)) {
    return at + "cluster_slots_ok:" + info_field(info.out, "cluster_slots_ok");
  }
  if (info_field(info.out, "cluster_known_nodes") != std::to_string(nodes_.size())) {
    return at + "cluster_known_nodes:" + info_field(info.out, "cluster_known_nodes");
  }
  std::string why;
  const auto lines = view(node.port(), &why);
  if (!lines) return at + why;
  for (const NodeLine& line : *lines) {
    if (line.migrating) return at + "slot migration open on " + std::to_string(line.port);
    const RedisNode* other = find(line.port);
    if (other != nullptr && other->running() && (line.failing() || line.has_flag("handshake"))) {
      return at + "sees running node " + std::to_string(line.port) + " as failing or in handshake";
    }
  }
  *owners = topology(*lines);
  const NodeLine* self = line_of_myself(*lines);
  if (self == nullptr) return at + "no myself line in CLUSTER NODES";
  if (self->has_flag("slave")) {
    const CliReply replication = cli_.run(node.port(), {"INFO", "replication"});
    if (!replication) return at + replication.error;
    const std::string link = info_field(replication.out, "master_link_status");
    if (link != "up") return at + "replica with master_link_status:" + link;
  }
  return {};
}

std::string RedisCluster::settle_problem() {
  std::string first_owners;
  uint16_t first_port = 0;
  for (const auto& node : nodes_) {
    if (!node->running()) continue;
    std::string owners;
    const std::string problem = node_problem(*node, &owners);
    if (!problem.empty()) return problem;
    if (first_port == 0) {
      first_owners = owners;
      first_port = node->port();
    } else if (owners != first_owners) {
      return "ports " + std::to_string(first_port) + " and " + std::to_string(node->port()) +
             " disagree on roles or slots";
    }
  }
  return first_port == 0 ? "no node is running" : "";
}

bool RedisCluster::wait_until_settled(std::chrono::milliseconds timeout) {
  return wait_for("every running node to report cluster_state:ok with all slots served, agree on roles and "
                  "slots, and have its replicas attached",
                  timeout, [this] { return settle_problem(); });
}

bool RedisCluster::kill_node(uint16_t port, int signal) {
  RedisNode* node = find(port);
  if (node == nullptr || !node->running()) return fail("kill_node: no running node on port " + std::to_string(port));
  if (signal != SIGSTOP && signal != SIGCONT) {
    dead_id_ = id_of(port);
    dead_replica_ids_.clear();
    std::string why;
    for (const NodeLine& line : any_view(&why).value_or(std::vector<NodeLine>{})) {
      if (line.primary_id == dead_id_) dead_replica_ids_.push_back(line.id);
    }
  }
  if (!node->signal(signal)) return fail("kill_node: " + node->error());
  return true;
}

bool RedisCluster::wait_for_failover(uint16_t dead_port, std::chrono::milliseconds timeout) {
  if (id_of(dead_port) != dead_id_ || dead_id_.empty()) {
    return fail("wait_for_failover: port " + std::to_string(dead_port) + " is not the node kill_node stopped last");
  }
  if (dead_replica_ids_.empty()) {
    return fail("wait_for_failover: port " + std::to_string(dead_port) + " had no replica when it was killed");
  }
  auto promoted = [this]() -> std::string {
    for (size_t i = 0; i < nodes_.size() && i < ids_.size(); ++i) {
      if (!nodes_[i]->running()) continue;
      if (std::find(dead_replica_ids_.begin(), dead_replica_ids_.end(), ids_[i]) == dead_replica_ids_.end()) continue;
      std::string why;
      const auto lines = view(nodes_[i]->port(), &why);
      const NodeLine* self = lines ? line_of_myself(*lines) : nullptr;
      if (self != nullptr && self->is_primary() && self->slot_count() > 0) return settle_problem();
    }
    return "no replica of " + dead_id_ + " is a primary with slots yet";
  };
  return wait_for("a replica of port " + std::to_string(dead_port) + " to take over its slots and the others to agree",
                  timeout, promoted);
}

bool RedisCluster::restart_node(uint16_t port) { return restart_nodes({port}); }

bool RedisCluster::restart_nodes(const std::vector<uint16_t>& ports) {
  for (uint16_t port : ports) {
    RedisNode* node = find(port);
    if (node == nullptr || node->running()) return fail("restart_node: no stopped node on port " + std::to_string(port));
    if (!node->start(cli_)) return fail("restart_node: " + node->error());
  }
  return wait_until_settled();
}

bool RedisCluster::reshard(uint16_t from_port, uint16_t to_port, int slot_count) {
  const std::string from_id = id_of(from_port);
  const std::string to_id = id_of(to_port);
  if (from_id.empty() || to_id.empty()) return fail("reshard: unknown port");
  const CliReply moved = cli_.run_tool({"--cluster", "reshard", "127.0.0.1:" + std::to_string(from_port),
                                        "--cluster-from", from_id, "--cluster-to", to_id, "--cluster-slots",
                                        std::to_string(slot_count), "--cluster-yes"},
                                       kClusterToolTimeout);
  if (!moved) return fail("redis-cli --cluster reshard failed: " + moved.error);
  return wait_until_settled();
}

bool RedisCluster::migrate_slot_start(int slot, uint16_t from_port, uint16_t to_port) {
  const std::string from_id = id_of(from_port);
  const std::string to_id = id_of(to_port);
  if (from_id.empty() || to_id.empty()) return fail("migrate_slot_start: unknown port");
  // Importing first: a client sent on by -ASK must find the target ready.
  const CliReply importing = cli_.run(to_port, {"CLUSTER", "SETSLOT", std::to_string(slot), "IMPORTING", from_id});
  if (!importing) return fail("migrate_slot_start: " + importing.error);
  const CliReply migrating = cli_.run(from_port, {"CLUSTER", "SETSLOT", std::to_string(slot), "MIGRATING", to_id});
  if (!migrating) return fail("migrate_slot_start: " + migrating.error);
  return true;
}

bool RedisCluster::migrate_slot_finish(int slot, uint16_t from_port, uint16_t to_port) {
  const std::string to_id = id_of(to_port);
  if (to_id.empty()) return fail("migrate_slot_finish: unknown port");
  std::vector<std::string> auth;
  const RedisCredentials& credentials = cli_.credentials();
  if (!credentials.user.empty()) {
    auth = {"AUTH2", credentials.user, credentials.password};
  } else if (!credentials.password.empty()) {
    auth = {"AUTH", credentials.password};
  }
  for (int batch = 0; batch < kMigrateBatchesMax; ++batch) {
    const CliReply keys = cli_.run(from_port, {"CLUSTER", "GETKEYSINSLOT", std::to_string(slot), "100"});
    if (!keys) return fail("migrate_slot_finish: " + keys.error);
    if (keys.out.empty()) break;
    std::vector<std::string> migrate = {"MIGRATE", "127.0.0.1", std::to_string(to_port), "", "0", "5000"};
    migrate.insert(migrate.end(), auth.begin(), auth.end());
    migrate.push_back("KEYS");
    for (size_t begin = 0; begin < keys.out.size();) {
      const size_t end = std::min(keys.out.find('\n', begin), keys.out.size());
      migrate.push_back(keys.out.substr(begin, end - begin));
      begin = end + 1;
    }
    const CliReply moved = cli_.run(from_port, migrate);
    if (!moved) return fail("migrate_slot_finish: " + moved.error);
  }
  // The target first, then the source, then the other primaries (the order redis-cli
  // uses); replicas refuse SETSLOT and learn the owner from their primaries.
  std::vector<uint16_t> order = {to_port, from_port};
  for (uint16_t port : primary_ports()) {
    if (port != to_port && port != from_port) order.push_back(port);
  }
  for (uint16_t port : order) {
    const CliReply set = cli_.run(port, {"CLUSTER", "SETSLOT", std::to_string(slot), "NODE", to_id});
    if (!set) return fail("migrate_slot_finish: " + set.error);
  }
  return wait_until_settled();
}

void RedisCluster::stop() {
  std::vector<pid_t> pids;
  for (const auto& node : nodes_) {
    if (node->running()) pids.push_back(node->pid());
  }
  stop_process_groups(pids, kRedisStopGrace);
  for (const auto& node : nodes_) node->forget_pid();
  nodes_.clear();
  if (!root_dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(root_dir_, ignored);
    root_dir_.clear();
  }
}

}  // namespace integration
