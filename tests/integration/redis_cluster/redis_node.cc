#include "tests/integration/redis_cluster/redis_node.h"

#include <signal.h>

#include <filesystem>
#include <fstream>

#include "tests/integration/redis_cluster/child_command.h"
#include "tests/integration/redis_cluster/deadline_poll.h"
#include "tests/integration/redis_cluster/fixture_files.h"
#include "tests/integration/redis_cluster/loopback_ports.h"

namespace integration {

namespace {

std::string trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

constexpr int kStartAttempts = 3;
constexpr std::chrono::milliseconds kStartPollInterval{20};

}  // namespace

RedisCli::RedisCli(RedisCredentials credentials)
    : program_(find_program("redis-cli")), credentials_(std::move(credentials)) {}

std::vector<std::string> RedisCli::auth_args() const {
  std::vector<std::string> args;
  if (!credentials_.user.empty()) args.insert(args.end(), {"--user", credentials_.user});
  if (!credentials_.password.empty()) args.insert(args.end(), {"-a", credentials_.password, "--no-auth-warning"});
  return args;
}

CliReply RedisCli::run(uint16_t port, const std::vector<std::string>& args, std::chrono::milliseconds timeout) const {
  std::vector<std::string> all = {"-h", "127.0.0.1", "-p", std::to_string(port), "-e"};
  all.insert(all.end(), args.begin(), args.end());
  return run_tool(all, timeout);
}

CliReply RedisCli::run_tool(const std::vector<std::string>& args, std::chrono::milliseconds timeout) const {
  CliReply reply;
  if (program_.empty()) {
    reply.error = "redis-cli not found in PATH (tools/install-deps installs redis-tools)";
    return reply;
  }
  std::vector<std::string> argv = {program_};
  const std::vector<std::string> auth = auth_args();
  argv.insert(argv.end(), auth.begin(), auth.end());
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandRun run = run_command(argv, timeout);
  reply.out = trim(run.out);
  // redis-cli -e still exits 0 on some failures it only prints (a refused AUTH is one).
  const bool error_printed = reply.out.rfind("ERR", 0) == 0 || reply.out.rfind("WRONGPASS", 0) == 0 ||
                             reply.out.rfind("NOAUTH", 0) == 0 || reply.out.rfind("AUTH failed", 0) == 0;
  reply.ok = run.exit_code == 0 && !error_printed;
  if (!reply.ok) {
    std::string command;
    for (const std::string& a : args) command += " " + a;
    reply.error = "redis-cli" + command + ": " +
                  (run.timed_out ? "no answer within " + std::to_string(timeout.count()) + " ms"
                                 : "exit status " + std::to_string(run.exit_code)) +
                  "; stdout: " + reply.out + "; stderr: " + trim(run.err);
  }
  return reply;
}

RedisNode::RedisNode(RedisNodeSettings settings)
    : settings_(std::move(settings)), server_program_(find_program("redis-server")) {}

RedisNode::~RedisNode() {
  if (pid_ > 0) stop_process_groups({pid_}, kRedisStopGrace);
}

namespace {

}  // namespace

std::string RedisNode::config_text() const {
  const std::string& dir = settings_.dir;
  const RedisCredentials& credentials = settings_.credentials;
  std::string c;
  c += "port " + std::to_string(port_) + "\nbind 127.0.0.1\n";
  c += "daemonize no\ndir " + dir + "\nlogfile " + dir + "/redis.log\nloglevel notice\n";
  // Nothing to keep between runs but nodes.conf; a SIGTERM must not wait for replicas.
  c += "save \"\"\nappendonly no\nshutdown-timeout 0\n";
  // A replica attaches (and a restarted primary re-attaches) without the 5 s wait for
  // more replicas that the default delay adds to every full sync.
  c += "repl-diskless-sync yes\nrepl-diskless-sync-delay 0\n";
  // DEBUG SLEEP lets a test make a node slow without stopping it.
  c += "enable-debug-command local\n";
  if (credentials.user.empty() && credentials.password.empty()) c += "protected-mode no\n";
  if (!credentials.user.empty()) {
    // Only that user may log in, so a client that forgets to send the user name fails.
    const std::string secret = credentials.password.empty() ? "nopass" : double_quoted(">" + credentials.password);
    c += "user default off\nuser " + double_quoted(credentials.user) + " on " + secret + " ~* &* +@all\n";
    c += "masteruser " + double_quoted(credentials.user) + "\n";
  } else if (!credentials.password.empty()) {
    c += "requirepass " + double_quoted(credentials.password) + "\n";
  }
  if (!credentials.password.empty()) c += "masterauth " + double_quoted(credentials.password) + "\n";
  if (!settings_.cluster) return c;
  c += "cluster-enabled yes\ncluster-port " + std::to_string(bus_port_) + "\n";
  c += "cluster-config-file " + dir + "/nodes.conf\n";
  c += "cluster-node-timeout " + std::to_string(settings_.node_timeout_ms) + "\n";
  // A replica is always eligible for failover however long its link was down, and no
  // replica moves to another primary on its own: the topology is the test's.
  c += "cluster-replica-validity-factor 0\ncluster-allow-replica-migration no\n";
  c += "cluster-allow-reads-when-down no\n";
  // As docs/cluster.md asks of production: a primary that fails leaves only its own slots
  // unanswered; with Redis's default (yes) every primary refuses every key while one slot is
  // uncovered, from the failure's detection until its replica takes over.
  c += "cluster-require-full-coverage no\n";
  return c;
}

bool RedisNode::start(const RedisCli& cli) {
  if (server_program_.empty()) {
    error_ = "redis-server not found in PATH (tools/install-deps installs it)";
    return false;
  }
  std::error_code ignored;
  std::filesystem::create_directories(settings_.dir, ignored);
  const bool pick_ports = port_ == 0;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    if (pick_ports) {
      const std::vector<uint16_t> ports = free_loopback_ports(settings_.cluster ? 2 : 1);
      if (ports.empty()) {
        error_ = "no free loopback port";
        return false;
      }
      port_ = ports[0];
      bus_port_ = settings_.cluster ? ports[1] : 0;
    }
    bool port_taken = false;
    if (start_once(cli, &port_taken)) return true;
    if (!port_taken || !pick_ports) return false;
  }
  return false;
}

bool RedisNode::start_once(const RedisCli& cli, bool* port_taken) {
  const std::string config_path = settings_.dir + "/redis.conf";
  std::ofstream(config_path, std::ios::trunc) << config_text();
  pid_ = start_background({server_program_, config_path}, settings_.dir + "/stdout.log");
  if (pid_ < 0) {
    error_ = "fork failed for redis-server";
    return false;
  }
  bool exited = false;
  const PollResult waited = poll_until_settled(kRedisStartTimeout, kStartPollInterval, [&](bool* give_up) {
    const CliReply ping = cli.run(port_, {"PING"}, std::chrono::milliseconds(2000));
    if (ping.ok && ping.out == "PONG") return std::string();
    exited = *give_up = reap_within(pid_, std::chrono::milliseconds(0));
    return ping.ok ? "PING answered " + ping.out : ping.error;
  });
  if (waited.settled) {
    error_.clear();
    return true;
  }
  if (exited) {
    pid_ = -1;
    const std::string log = log_tail(40);
    *port_taken = log.find("Address already in use") != std::string::npos;
    error_ = "redis-server on port " + std::to_string(port_) + " exited during start:\n" + log;
    return false;
  }
  error_ = "redis-server on port " + std::to_string(port_) + " did not answer PING within " +
           std::to_string(kRedisStartTimeout.count()) + " ms (" + waited.last_problem + "):\n" + log_tail();
  return false;
}

bool RedisNode::signal(int signal) {
  if (pid_ <= 0) return false;
  if (signal == SIGSTOP || signal == SIGCONT) return ::kill(pid_, signal) == 0;
  if (!end_process_group(pid_, signal, kRedisStopGrace)) {
    error_ = "redis-server on port " + std::to_string(port_) + " still running " +
             std::to_string(kRedisStopGrace.count()) + " ms after signal " + std::to_string(signal);
    return false;
  }
  pid_ = -1;
  return true;
}

std::string RedisNode::log_tail(size_t lines) const {
  std::string out = "  " + settings_.dir + "/redis.log (port " + std::to_string(port_) + "):\n" +
                    tail_of_file(settings_.dir + "/redis.log", lines);
  const std::string early = tail_of_file(settings_.dir + "/stdout.log", 5);
  if (!early.empty()) out += "  its stdout and stderr:\n" + early;
  return out;
}

}  // namespace integration
