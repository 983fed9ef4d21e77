#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

#include <algorithm>
#include <filesystem>

#include "tests/integration/redis_cluster/child_command.h"
#include "tests/integration/redis_cluster/deadline_poll.h"
#include "tests/integration/redis_cluster/fixture_files.h"

namespace integration {

namespace {

// redis-cli --cluster create refuses fewer primaries than this.
constexpr int kMinPrimaries = 3;
constexpr std::chrono::milliseconds kSettlePollInterval{50};

}  // namespace

RedisCluster::RedisCluster(RedisClusterOptions options)
    : options_(std::move(options)), cli_(RedisCredentials{options_.password, options_.acl_user}) {
  ok_ = create();
}

RedisCluster::~RedisCluster() { stop(); }

bool RedisCluster::create() {
  if (options_.primaries < kMinPrimaries || options_.replicas_per_primary < 0) {
    return fail("a cluster needs at least 3 primaries and no negative replica count");
  }
  root_dir_ = make_temp_dir("decisiond-redis-cluster");
  if (root_dir_.empty()) return fail("mkdtemp failed under " + std::filesystem::temp_directory_path().string());
  if (!start_nodes()) return false;
  std::vector<std::string> args = {"--cluster", "create"};
  for (const auto& node : nodes_) args.push_back("127.0.0.1:" + std::to_string(node->port()));
  args.insert(args.end(), {"--cluster-replicas", std::to_string(options_.replicas_per_primary), "--cluster-yes"});
  const CliReply created = cli_.run_tool(args, kClusterToolTimeout);
  if (!created) return fail("redis-cli --cluster create failed: " + created.error);
  if (!wait_until_settled()) return false;
  // The topology asked for: the other calls and the tests count on it.
  std::string why;
  const auto view = any_view(&why);
  if (!view) return fail(why);
  int primaries = 0;
  int replicas = 0;
  for (const NodeLine& line : *view) {
    if (line.is_primary() && line.slot_count() > 0) {
      ++primaries;
      seed_ports_.push_back(line.port);
    }
    if (line.has_flag("slave")) ++replicas;
  }
  if (primaries != options_.primaries || replicas != options_.primaries * options_.replicas_per_primary) {
    return fail("created " + std::to_string(primaries) + " primaries with slots and " + std::to_string(replicas) +
                " replicas, not the " + std::to_string(options_.primaries) + " and " +
                std::to_string(options_.primaries * options_.replicas_per_primary) + " asked for");
  }
  std::sort(seed_ports_.begin(), seed_ports_.end());
  return true;
}

bool RedisCluster::start_nodes() {
  const int total = options_.primaries * (1 + options_.replicas_per_primary);
  for (int i = 0; i < total; ++i) {
    RedisNodeSettings settings{root_dir_ + "/node-" + std::to_string(i), /*cluster=*/true, options_.node_timeout_ms,
                               cli_.credentials()};
    nodes_.push_back(std::make_unique<RedisNode>(std::move(settings)));
    if (!nodes_.back()->start(cli_)) return fail("node " + std::to_string(i) + ": " + nodes_.back()->error());
    const CliReply id = cli_.run(nodes_.back()->port(), {"CLUSTER", "MYID"});
    if (!id) return fail("CLUSTER MYID: " + id.error);
    ids_.push_back(id.out);
  }
  return true;
}

std::string RedisCluster::seed_url() const {
  std::string url = "redis://";
  for (size_t i = 0; i < seed_ports_.size(); ++i) {
    url += (i == 0 ? "" : ",") + std::string("127.0.0.1:") + std::to_string(seed_ports_[i]);
  }
  return url;
}

CliReply RedisCluster::cli(const std::vector<std::string>& args, uint16_t port) const { return cli_.run(port, args); }

RedisNode* RedisCluster::find(uint16_t port) {
  for (const auto& node : nodes_) {
    if (node->port() == port) return node.get();
  }
  return nullptr;
}

std::string RedisCluster::id_of(uint16_t port) {
  for (size_t i = 0; i < nodes_.size() && i < ids_.size(); ++i) {
    if (nodes_[i]->port() == port) return ids_[i];
  }
  return {};
}

std::optional<std::vector<NodeLine>> RedisCluster::view(uint16_t port, std::string* why) {
  const CliReply reply = cli_.run(port, {"CLUSTER", "NODES"});
  if (!reply) {
    *why = reply.error;
    return std::nullopt;
  }
  return parse_cluster_nodes(reply.out);
}

std::optional<std::vector<NodeLine>> RedisCluster::any_view(std::string* why) {
  *why = "no node is running";
  for (const auto& node : nodes_) {
    if (!node->running()) continue;
    if (auto lines = view(node->port(), why)) return lines;
  }
  return std::nullopt;
}

std::vector<RedisClusterNode> RedisCluster::nodes() {
  std::string why;
  const auto lines = any_view(&why);
  std::vector<RedisClusterNode> out;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    RedisClusterNode node;
    node.port = nodes_[i]->port();
    node.bus_port = nodes_[i]->bus_port();
    node.pid = nodes_[i]->pid();
    node.running = nodes_[i]->running();
    node.id = i < ids_.size() ? ids_[i] : "";
    for (const NodeLine& line : lines.value_or(std::vector<NodeLine>{})) {
      if (line.id != node.id) continue;
      node.role = line.is_primary() ? "master" : (line.has_flag("slave") ? "slave" : "");
      node.primary_id = line.primary_id;
    }
    out.push_back(std::move(node));
  }
  return out;
}

std::optional<RedisClusterNode> RedisCluster::node(uint16_t port) {
  for (RedisClusterNode& n : nodes()) {
    if (n.port == port) return n;
  }
  return std::nullopt;
}

std::vector<uint16_t> RedisCluster::primary_ports() {
  std::string why;
  std::vector<uint16_t> ports;
  for (const NodeLine& line : any_view(&why).value_or(std::vector<NodeLine>{})) {
    if (line.is_primary() && !line.failing() && line.slot_count() > 0) ports.push_back(line.port);
  }
  std::sort(ports.begin(), ports.end());
  return ports;
}

std::optional<int> RedisCluster::slot_of(const std::string& key) {
  for (const auto& node : nodes_) {
    if (!node->running()) continue;
    const CliReply reply = cli_.run(node->port(), {"CLUSTER", "KEYSLOT", key});
    if (!reply) {
      fail("CLUSTER KEYSLOT: " + reply.error);
      return std::nullopt;
    }
    return std::stoi(reply.out);
  }
  fail("CLUSTER KEYSLOT: no node is running");
  return std::nullopt;
}

std::optional<uint16_t> RedisCluster::primary_for_key(const std::string& key) {
  const std::optional<int> slot = slot_of(key);
  if (!slot) return std::nullopt;
  std::string why;
  const auto lines = any_view(&why);
  if (!lines) {
    fail("CLUSTER NODES: " + why);
    return std::nullopt;
  }
  for (const NodeLine& line : *lines) {
    if (line.is_primary() && !line.failing() && line.serves(*slot)) return line.port;
  }
  fail("no running primary serves slot " + std::to_string(*slot) + " of key " + key);
  return std::nullopt;
}

int RedisCluster::slots_served_by(uint16_t port) {
  int agreed = -1;
  for (const auto& node : nodes_) {
    if (!node->running()) continue;
    std::string why;
    const auto lines = view(node->port(), &why);
    if (!lines) return -1;
    int count = 0;
    for (const NodeLine& line : *lines) count += line.port == port ? line.slot_count() : 0;
    if (agreed >= 0 && count != agreed) return -1;
    agreed = count;
  }
  return agreed;
}

bool RedisCluster::fail(const std::string& what) {
  error_ = what + "\nlogs (" + root_dir_ + "):\n";
  for (const auto& node : nodes_) error_ += node->log_tail();
  return false;
}

bool RedisCluster::wait_for(const std::string& what, std::chrono::milliseconds timeout,
                            const std::function<std::string()>& problem) {
  const PollResult waited = poll_until_settled(timeout, kSettlePollInterval, [&](bool*) { return problem(); });
  if (waited.settled) return true;
  return fail("waited " + std::to_string(timeout.count()) + " ms for " + what + "; still: " + waited.last_problem);
}

}  // namespace integration
