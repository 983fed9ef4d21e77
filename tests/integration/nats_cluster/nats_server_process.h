#pragma once
// One nats-server of the NATS cluster fixture, with JetStream, in a folder of its own: its
// configuration file, its JetStream store and what it printed. Started in the background,
// tied to the test process (it dies with it) and stopped by its destructor.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace integration {

// Generous: reached only when something is wrong, never a performance assertion.
inline constexpr std::chrono::milliseconds kNatsServerUpTimeout{15000};
inline constexpr std::chrono::milliseconds kNatsServerStopGrace{5000};

// JetStream limits of each server: far above what a test stores, far below a disk or the
// memory of a loaded test machine.
inline constexpr int64_t kNatsMaxMemoryStoreBytes = 64ll << 20;
inline constexpr int64_t kNatsMaxFileStoreBytes = 256ll << 20;

struct NatsServerPorts {
  uint16_t client = 0;   // clients connect here
  uint16_t cluster = 0;  // routes from the other servers
  uint16_t monitor = 0;  // HTTP: /healthz, /jsz, /varz
};

struct NatsServerSettings {
  std::string dir;           // the server's own folder; created if missing
  std::string name;          // server_name: how JetStream names the peer (stream leader, replicas)
  std::string cluster_name;  // the same for every server of a cluster
  NatsServerPorts ports;
  std::vector<uint16_t> route_ports;  // every server's cluster port; its own is ignored by nats-server
  std::string user;                   // with password: clients must log in; empty: no authorization
  std::string password;
};

class NatsServerProcess {
 public:
  explicit NatsServerProcess(NatsServerSettings settings);
  NatsServerProcess(const NatsServerProcess&) = delete;
  NatsServerProcess& operator=(const NatsServerProcess&) = delete;
  ~NatsServerProcess();

  // Writes the configuration and starts nats-server without waiting: a clustered server is
  // only useful once its peers run too, so the cluster starts them all and then waits.
  bool launch();
  // Until the server listens for clients with JetStream enabled (its own readiness, not the
  // cluster's). False when it exited or the deadline passed; *port_taken when it exited
  // because another process holds one of its ports.
  bool wait_until_up(std::chrono::milliseconds timeout, bool* port_taken);
  // Sends signal; for a signal that ends the process waits for its exit. SIGSTOP and
  // SIGCONT only pause and resume it.
  bool signal(int signal);
  // SIGTERM, then SIGKILL after kNatsServerStopGrace. Idempotent.
  void stop();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  const NatsServerSettings& settings() const { return settings_; }
  const std::string& error() const { return error_; }
  // The last lines the server printed (nats-server logs to stderr).
  std::string log_tail(size_t lines = 15) const;

 private:
  std::string config_text() const;
  std::string output_path() const { return settings_.dir + "/nats-server.log"; }

  NatsServerSettings settings_;
  std::string program_;
  pid_t pid_ = -1;
  std::string error_;
};

}  // namespace integration
