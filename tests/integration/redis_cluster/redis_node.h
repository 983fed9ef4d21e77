#pragma once
// One redis-server of the test fixtures, in a folder of its own on free loopback ports,
// and redis-cli pointed at it with the fixture's credentials.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace integration {

// Generous: reached only when something is wrong, never a performance assertion.
inline constexpr std::chrono::milliseconds kRedisStartTimeout{10000};
inline constexpr std::chrono::milliseconds kRedisCliTimeout{10000};
inline constexpr std::chrono::milliseconds kRedisStopGrace{5000};

struct RedisCredentials {
  std::string password;  // empty: no password
  std::string user;      // empty: the default user
};

// What redis-cli printed, or why it failed: error holds the command, its exit status, and
// what it printed, where an error reply (-MOVED, -ASK, WRONGPASS) is found.
struct CliReply {
  bool ok = false;
  std::string out;  // trimmed
  std::string error;
  explicit operator bool() const { return ok; }
};

// redis-cli with -a/--user; -e so an error reply is a failure, not a line of output.
class RedisCli {
 public:
  explicit RedisCli(RedisCredentials credentials);
  CliReply run(uint16_t port, const std::vector<std::string>& args,
               std::chrono::milliseconds timeout = kRedisCliTimeout) const;
  // For redis-cli --cluster commands, which take host:port operands instead of -p.
  CliReply run_tool(const std::vector<std::string>& args, std::chrono::milliseconds timeout) const;
  const RedisCredentials& credentials() const { return credentials_; }

 private:
  std::vector<std::string> auth_args() const;

  std::string program_;
  RedisCredentials credentials_;
};

struct RedisNodeSettings {
  std::string dir;  // the node's own folder; created if missing
  bool cluster = false;
  int node_timeout_ms = 1000;
  RedisCredentials credentials;
};

class RedisNode {
 public:
  explicit RedisNode(RedisNodeSettings settings);
  RedisNode(const RedisNode&) = delete;
  RedisNode& operator=(const RedisNode&) = delete;
  ~RedisNode();

  // Starts the server and waits until it answers PING. The first start picks free ports
  // (again if another process took one first); later starts reuse them, and the folder.
  bool start(const RedisCli& cli);
  // Sends signal to the server; for a signal that ends it, waits for its exit.
  bool signal(int signal);
  void forget_pid() { pid_ = -1; }  // after the caller has stopped and reaped it
  bool running() const { return pid_ > 0; }

  pid_t pid() const { return pid_; }
  uint16_t port() const { return port_; }
  uint16_t bus_port() const { return bus_port_; }
  const std::string& dir() const { return settings_.dir; }
  const std::string& error() const { return error_; }
  // The last lines of its log file and of what it wrote before it opened the log.
  std::string log_tail(size_t lines = 15) const;

 private:
  bool start_once(const RedisCli& cli, bool* port_taken);
  std::string config_text() const;

  RedisNodeSettings settings_;
  std::string server_program_;
  pid_t pid_ = -1;
  uint16_t port_ = 0;
  uint16_t bus_port_ = 0;
  std::string error_;
};

}  // namespace integration
