#include "tests/integration/nats_cluster/nats_server_process.h"

#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>

#include "tests/integration/nats_cluster/nats_monitor.h"
#include "tests/integration/redis_cluster/child_command.h"
#include "tests/integration/redis_cluster/deadline_poll.h"
#include "tests/integration/redis_cluster/fixture_files.h"

namespace integration {

namespace {

// Debian installs nats-server in /usr/sbin, which a user's PATH often lacks.
std::string nats_server_program() {
  std::string found = find_program("nats-server");
  for (const char* dir : {"/usr/sbin/", "/usr/local/sbin/"}) {
    if (!found.empty()) break;
    const std::string candidate = std::string(dir) + "nats-server";
    if (::access(candidate.c_str(), X_OK) == 0) found = candidate;
  }
  return found;
}

std::string loopback(uint16_t port) { return double_quoted("127.0.0.1:" + std::to_string(port)); }

bool mentions_port_in_use(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text.find("address already in use") != std::string::npos;
}

// Lines to look through for the reason a server exited during start.
constexpr size_t kExitReasonLines = 40;
constexpr std::chrono::milliseconds kUpPollInterval{20};

}  // namespace

NatsServerProcess::NatsServerProcess(NatsServerSettings settings)
    : settings_(std::move(settings)), program_(nats_server_program()) {}

NatsServerProcess::~NatsServerProcess() { stop(); }

std::string NatsServerProcess::config_text() const {
  const NatsServerSettings& s = settings_;
  std::string c;
  c += "server_name: " + double_quoted(s.name) + "\n";
  c += "listen: " + loopback(s.ports.client) + "\n";
  c += "http: " + loopback(s.ports.monitor) + "\n";
  c += "cluster {\n  name: " + double_quoted(s.cluster_name) + "\n  listen: " + loopback(s.ports.cluster) + "\n";
  // Every server lists every other, so a restarted server finds the cluster again whichever
  // of its peers is up; configured routes are retried for as long as the server runs.
  c += "  routes: [\n";
  for (const uint16_t port : s.route_ports) c += "    " + double_quoted("nats-route://127.0.0.1:" + std::to_string(port)) + "\n";
  c += "  ]\n}\n";
  // The block enables JetStream as -js would, with the store in the server's own folder
  // (nats-server adds a jetstream/ directory under store_dir).
  c += "jetstream {\n  store_dir: " + double_quoted(s.dir + "/store") + "\n";
  c += "  max_memory_store: " + std::to_string(kNatsMaxMemoryStoreBytes) + "\n";
  c += "  max_file_store: " + std::to_string(kNatsMaxFileStoreBytes) + "\n}\n";
  if (!s.user.empty() || !s.password.empty()) {
    // One user in the default account, which holds JetStream when no accounts are
    // configured: a client without these credentials is refused at CONNECT.
    c += "authorization {\n  user: " + double_quoted(s.user) + "\n  password: " + double_quoted(s.password) + "\n}\n";
  }
  return c;
}

bool NatsServerProcess::launch() {
  if (program_.empty()) {
    error_ = "nats-server not found in PATH, /usr/sbin or /usr/local/sbin (tools/install-deps installs it)";
    return false;
  }
  if (pid_ > 0) {
    error_ = "nats-server " + settings_.name + " is already running";
    return false;
  }
  std::error_code ignored;
  std::filesystem::create_directories(settings_.dir, ignored);
  const std::string config_path = settings_.dir + "/nats.conf";
  std::ofstream config(config_path, std::ios::trunc);
  config << config_text();
  config.close();
  if (!config) {
    error_ = "cannot write " + config_path;
    return false;
  }
  pid_ = start_background({program_, "-c", config_path}, output_path());
  if (pid_ < 0) {
    error_ = "fork failed for nats-server " + settings_.name;
    return false;
  }
  error_.clear();
  return true;
}

bool NatsServerProcess::wait_until_up(std::chrono::milliseconds timeout, bool* port_taken) {
  *port_taken = false;
  if (pid_ <= 0) {
    error_ = "nats-server " + settings_.name + " is not running";
    return false;
  }
  bool exited = false;
  const PollResult waited = poll_until_settled(timeout, kUpPollInterval, [&](bool* give_up) {
    const MonitorReply health = monitor_get(settings_.ports.monitor, "/healthz?js-enabled-only=true");
    if (health.answered && health.status == 200) return std::string();
    exited = *give_up = reap_within(pid_, std::chrono::milliseconds(0));
    return health.answered ? "/healthz " + std::to_string(health.status) + " " + health.body : health.error;
  });
  if (waited.settled) return true;
  if (exited) {
    pid_ = -1;
    const std::string log = log_tail(kExitReasonLines);
    *port_taken = mentions_port_in_use(log);
    error_ = "nats-server " + settings_.name + " exited during start:\n" + log;
    return false;
  }
  error_ = "nats-server " + settings_.name + " not up within " + std::to_string(timeout.count()) + " ms (" +
           waited.last_problem + "):\n" + log_tail();
  return false;
}

bool NatsServerProcess::signal(int signal) {
  if (pid_ <= 0) return false;
  if (signal == SIGSTOP || signal == SIGCONT) return ::kill(pid_, signal) == 0;
  if (!end_process_group(pid_, signal, kNatsServerStopGrace)) {
    error_ = "nats-server " + settings_.name + " still running " + std::to_string(kNatsServerStopGrace.count()) +
             " ms after signal " + std::to_string(signal);
    return false;
  }
  pid_ = -1;
  return true;
}

void NatsServerProcess::stop() {
  if (pid_ <= 0) return;
  stop_process_groups({pid_}, kNatsServerStopGrace);
  pid_ = -1;
}

std::string NatsServerProcess::log_tail(size_t lines) const {
  return "  " + output_path() + " (" + settings_.name + ", client port " + std::to_string(settings_.ports.client) +
         "):\n" + tail_of_file(output_path(), lines);
}

}  // namespace integration
