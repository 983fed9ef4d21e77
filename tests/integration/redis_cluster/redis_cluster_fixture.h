#pragma once
// A Redis Cluster on loopback for tests: redis-server processes on free ports, each in its
// own folder under a fresh temporary directory, joined with redis-cli --cluster create and
// waited for until every node agrees on all 16384 slots and every replica is attached.
// Every process is stopped (SIGTERM, then SIGKILL) and the directory removed by stop() or
// the destructor, and each node dies with the test process (PR_SET_PDEATHSIG), so a
// failing or killed test never leaves a redis-server behind.
#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/integration/redis_cluster/cluster_view.h"
#include "tests/integration/redis_cluster/redis_node.h"
#include "tests/integration/redis_cluster/redis_server.h"

namespace integration {

// Generous: reached only when something is wrong, never a performance assertion.
inline constexpr std::chrono::milliseconds kClusterSettleTimeout{30000};
inline constexpr std::chrono::milliseconds kClusterToolTimeout{60000};

struct RedisClusterOptions {
  int primaries = 3;
  int replicas_per_primary = 1;
  std::string password;  // empty: none
  std::string acl_user;  // empty: the default user; else only this user may log in
  int node_timeout_ms = 1000;
};

struct RedisClusterNode {
  uint16_t port = 0;
  uint16_t bus_port = 0;
  pid_t pid = -1;  // -1 while it is not running
  bool running = false;
  std::string id;
  std::string role;        // "master" or "slave", as a running node sees it now
  std::string primary_id;  // a replica's primary; empty for a primary
};

class RedisCluster {
 public:
  explicit RedisCluster(RedisClusterOptions options = {});
  RedisCluster(const RedisCluster&) = delete;
  RedisCluster& operator=(const RedisCluster&) = delete;
  ~RedisCluster();

  // Whether the cluster came up; error() says why not, or why the last call failed, with
  // the tail of the logs involved.
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }

  // "redis://127.0.0.1:P1,127.0.0.1:P2,..." of the primaries at creation; no credentials.
  std::string seed_url() const;
  const RedisClusterOptions& options() const { return options_; }
  std::vector<RedisClusterNode> nodes();
  std::vector<uint16_t> primary_ports();
  std::optional<RedisClusterNode> node(uint16_t port);

  // redis-cli -p port (with the credentials) args: its stdout trimmed, or the error.
  CliReply cli(const std::vector<std::string>& args, uint16_t port) const;
  // The port of the primary serving the key's slot now, as a running node sees it.
  std::optional<uint16_t> primary_for_key(const std::string& key);
  std::optional<int> slot_of(const std::string& key);
  // Slots the node at port serves, as every running node agrees; -1 when they do not.
  int slots_served_by(uint16_t port);

  // Sends signal; for a signal that ends the process waits for its exit and remembers
  // the node is down (SIGSTOP and SIGCONT only pause and resume it).
  bool kill_node(uint16_t port, int signal = SIGKILL);
  // Until a former replica of the dead primary is a primary and every running node reports
  // cluster_state:ok with all slots served and agrees on roles and slots.
  bool wait_for_failover(uint16_t dead_port, std::chrono::milliseconds timeout = kClusterSettleTimeout);
  // The same port, folder and nodes.conf: the node rejoins (as a replica after a failover).
  bool restart_node(uint16_t port);
  // Several at once, then until settled: a whole cluster stopped comes back from its
  // nodes.conf files with the same ids, roles and slots (its keys gone: no persistence).
  bool restart_nodes(const std::vector<uint16_t>& ports);
  // redis-cli --cluster reshard, then until every node agrees.
  bool reshard(uint16_t from_port, uint16_t to_port, int slot_count);
  // For ASK tests: the slot IMPORTING on `to` and MIGRATING on `from`, then its keys moved
  // with MIGRATE and the slot given to `to` on every node.
  bool migrate_slot_start(int slot, uint16_t from_port, uint16_t to_port);
  bool migrate_slot_finish(int slot, uint16_t from_port, uint16_t to_port);
  // Until every running node agrees on roles and slots, serves them all and has its
  // replicas attached; what the other calls wait for.
  bool wait_until_settled(std::chrono::milliseconds timeout = kClusterSettleTimeout);

  // Every process stopped, the directory removed. Idempotent.
  void stop();

 private:
  bool create();
  bool start_nodes();
  RedisNode* find(uint16_t port);
  std::optional<std::vector<NodeLine>> view(uint16_t port, std::string* why);
  std::optional<std::vector<NodeLine>> any_view(std::string* why);
  std::string settle_problem();
  std::string node_problem(RedisNode& node, std::string* owners);
  bool fail(const std::string& what);
  bool wait_for(const std::string& what, std::chrono::milliseconds timeout,
                const std::function<std::string()>& problem);
  std::string id_of(uint16_t port);

  RedisClusterOptions options_;
  RedisCli cli_;
  std::string root_dir_;
  std::vector<std::unique_ptr<RedisNode>> nodes_;
  std::vector<std::string> ids_;  // nodes_[i]'s id, read once it is up
  std::vector<uint16_t> seed_ports_;
  bool ok_ = false;
  std::string error_;
  // The dead primary's replicas at the time it was killed, for wait_for_failover.
  std::string dead_id_;
  std::vector<std::string> dead_replica_ids_;
};

}  // namespace integration
