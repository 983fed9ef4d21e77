#include "tests/integration/client_address/haproxy_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/integration/redis_cluster/child_command.h"
#include "tests/integration/redis_cluster/loopback_ports.h"
#include "tests/integration/reply_log.h"

namespace integration {

namespace {

constexpr std::chrono::milliseconds kListenTimeout{5000};

bool accepts(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return ok;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

HaproxyProcess::HaproxyProcess(const std::string& config, size_t ports) {
  const std::string program = find_program("haproxy");
  if (program.empty()) {
    error_ = "haproxy is not installed (tools/install-deps installs it)";
    return;
  }
  char pattern[] = "/tmp/decisiond-haproxy-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) {
    error_ = "mkdtemp failed";
    return;
  }
  dir_ = pattern;
  ports_ = free_loopback_ports(ports);
  if (ports_.size() != ports) {
    error_ = "no free loopback ports";
    return;
  }
  std::string sections = config;
  for (size_t n = 0; n < ports; ++n) {
    const std::string mark = "{port " + std::to_string(n) + "}";
    for (size_t at = sections.find(mark); at != std::string::npos; at = sections.find(mark)) {
      sections.replace(at, mark.size(), std::to_string(ports_[n]));
    }
  }
  const std::string config_path = dir_ + "/haproxy.cfg";
  std::ofstream(config_path) << "global\n  maxconn 256\n\n"
                                "defaults\n  timeout connect 2s\n  timeout client 10s\n  timeout server 10s\n\n"
                             << sections;
  const std::string log_path = dir_ + "/haproxy.log";
  // -db: stay in the foreground, no daemon; the fixture owns its process group.
  pid_ = start_background({program, "-db", "-f", config_path}, log_path);
  if (pid_ < 0) {
    error_ = "fork failed";
    return;
  }
  const auto deadline = std::chrono::steady_clock::now() + kListenTimeout;
  for (uint16_t port : ports_) {
    while (!accepts(port)) {
      const bool exited = reap_within(pid_, std::chrono::milliseconds(0));
      if (exited || std::chrono::steady_clock::now() > deadline) {
        if (exited) pid_ = -1;  // reaped: its id may be reused, never signal it
        error_ = "haproxy does not listen on " + std::to_string(port) + ": " + read_file(log_path);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // What clients ask through it reaches decisiond's public routes: their replies are checked
  // against the public API's documents like any other.
  for (uint16_t port : ports_) reply_log::note_balancer_port(port);
}

HaproxyProcess::~HaproxyProcess() {
  if (pid_ > 0) end_process_group(pid_, SIGTERM, std::chrono::milliseconds(2000));
  if (!dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
}

}  // namespace integration
