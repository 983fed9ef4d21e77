#pragma once
// A NATS cluster with JetStream on loopback for tests: nats-server processes on free
// ports, each in its own folder (configuration, JetStream store, log) under a fresh
// temporary directory, joined by routes and waited for until the cluster is whole (see
// wait_until_ready). Every process is stopped (SIGTERM, then SIGKILL) and the directory
// removed by stop() or the destructor, and each server dies with the test process
// (PR_SET_PDEATHSIG), so a failing or killed test never leaves a nats-server behind.
#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/integration/nats_cluster/nats_server_process.h"

namespace integration {

// Generous: reached only when something is wrong, never a performance assertion. A fresh
// cluster is whole in about a second; a restarted server waits out route retries and a
// JetStream catch-up.
inline constexpr std::chrono::milliseconds kNatsClusterReadyTimeout{60000};

struct NatsClusterOptions {
  int servers = 3;
  std::string user;  // with password: clients must log in; both empty: no authorization
  // Any characters in the server's configuration, but libnats 3.4.1 writes the password
  // into its CONNECT JSON unescaped: with a '"' or '\\' in it the C client cannot log in.
  std::string password;
};

class NatsCluster {
 public:
  explicit NatsCluster(NatsClusterOptions options = {});
  NatsCluster(const NatsCluster&) = delete;
  NatsCluster& operator=(const NatsCluster&) = delete;
  ~NatsCluster();

  // Whether the cluster came up; error() says why not, or why the last call failed, with
  // the tail of every server's log.
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  const NatsClusterOptions& options() const { return options_; }

  // "nats://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3": the client ports in server order, no
  // credentials. The same servers one URL each ("nats://127.0.0.1:P1", ...), as the NATS C
  // client's natsOptions_SetServers takes them.
  std::string client_url() const;
  std::vector<std::string> server_urls() const;
  std::vector<uint16_t> ports() const;  // client ports, by server index
  uint16_t monitor_port(int index) const;
  // The JetStream peer name of a server ("n0", "n1", ...): what stream info reports as a
  // stream's leader and replicas.
  std::string server_name(int index) const;
  std::optional<int> index_of(const std::string& server_name) const;
  bool running(int index) const;
  pid_t pid(int index) const;  // -1 while it is not running
  // The temporary directory holding every server's folder (n0/, n1/, ...); empty after stop().
  const std::string& root_dir() const { return root_dir_; }

  // Sends signal to one server; for a signal that ends it, waits for its exit and
  // remembers it is down (SIGSTOP and SIGCONT only pause and resume it). Returns at once:
  // the cluster's reaction (a new meta or stream leader) is the test's to wait for.
  bool kill_server(int index, int signal = SIGKILL);
  // The same ports, configuration and JetStream store, then until the cluster is whole.
  bool restart_server(int index);
  // Several at once (a cluster that was stopped entirely needs a quorum back before it can
  // be whole), then until the cluster is whole.
  bool restart_servers(const std::vector<int>& indices);
  // Until every server answers GET /healthz with 200 (it has a JetStream meta leader, is
  // current with it, and each stream and consumer replica it holds has caught up) and the
  // meta group agrees on one leader whose /jsz lists all the other servers as current
  // followers. Polls every server's monitoring port; fails if a server is down.
  bool wait_until_ready(std::chrono::milliseconds timeout = kNatsClusterReadyTimeout);

  // Every process stopped, the directory removed. Idempotent.
  void stop();

 private:
  bool create();
  bool start_on_fresh_ports(bool* port_taken);
  bool launch_and_wait_up(const std::vector<int>& indices, bool* port_taken);
  std::string readiness_problem();
  std::string meta_leader_problem(const std::string& leader);
  bool valid_index(int index, const char* caller);
  bool fail(const std::string& what);

  NatsClusterOptions options_;
  std::string root_dir_;
  std::vector<std::unique_ptr<NatsServerProcess>> servers_;
  bool ok_ = false;
  std::string error_;
};

}  // namespace integration
