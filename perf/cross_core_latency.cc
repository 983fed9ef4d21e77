// Client-side latency of decisions whose user lives on the core the connection landed on
// ("local") against decisions whose user lives on the other core ("forwarded": handed over
// by message and answered back), for perf/cross_core_latency.sh.
//
//   decisiond_cross_core_latency --port P --admin-port A [--cores 2] [--requests 20000]
//       [--warmup 2000] [--runs-per-core 2] [--users 1000] [--version 2025-11-01]
//
// Each run opens ONE kept-alive TCP connection (TCP_NODELAY) to 127.0.0.1:P and sends
// decisions one at a time, each after the previous reply (a light load), alternating a user
// owned by core 0 and a user owned by core 1 (caps::owner_core, the server's own rule), so
// both sets see the same machine at the same moments. Which core the connection landed on
// comes from the server's metrics while it is open (decisiond_http_connections_open on the
// public listener, by core); the run's forwarded counters confirm which set was handed over.
// Runs continue until each core has been landed on --runs-per-core times (a connection that
// lands on a core with enough runs is closed unmeasured), at most 64 connections.
//
// Prints p50/p90/p99/p99.9/max of each set per run and their differences. Numbers only.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "caps/user_key.h"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "decisiond_cross_core_latency: %s\n", what.c_str());
  std::exit(1);
}

const char* flag(int argc, char** argv, const char* name, const char* fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  return fallback;
}

int connect_to(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("socket failed");
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    fail("cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  return fd;
}

void write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n <= 0) fail("write failed");
    done += static_cast<size_t>(n);
  }
}

// Reads one HTTP/1.1 reply with a Content-Length (what decisiond sends) from fd; buf keeps
// what was read past it (nothing, with one request in flight). Returns the status.
int read_reply(int fd, std::string& buf) {
  size_t header_end;
  char chunk[16384];
  while ((header_end = buf.find("\r\n\r\n")) == std::string::npos) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n <= 0) fail("the server closed the connection");
    buf.append(chunk, static_cast<size_t>(n));
  }
  if (buf.compare(0, 9, "HTTP/1.1 ") != 0) fail("not an HTTP/1.1 reply: " + buf.substr(0, 40));
  const int status = std::atoi(buf.c_str() + 9);
  size_t length = 0;
  for (size_t at = buf.find("\r\n"); at < header_end; at = buf.find("\r\n", at + 2)) {
    if (strncasecmp(buf.c_str() + at + 2, "content-length:", 15) == 0) {
      length = std::strtoul(buf.c_str() + at + 17, nullptr, 10);
    }
  }
  const size_t total = header_end + 4 + length;
  while (buf.size() < total) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n <= 0) fail("the server closed the connection mid-reply");
    buf.append(chunk, static_cast<size_t>(n));
  }
  buf.erase(0, total);
  return status;
}

// The sum by core of a metric's lines on the admin listener's /metrics, optionally only the
// lines holding `must_contain`.
std::map<int, long> metric_by_core(int admin_port, const std::string& name, const std::string& must_contain = "") {
  int fd = connect_to(admin_port);
  write_all(fd, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  std::string page;
  char chunk[16384];
  for (ssize_t n; (n = ::read(fd, chunk, sizeof chunk)) > 0;) page.append(chunk, static_cast<size_t>(n));
  ::close(fd);
  std::map<int, long> out;
  const std::string prefix = name + "{";
  for (size_t at = 0; at < page.size();) {
    size_t end = page.find('\n', at);
    if (end == std::string::npos) end = page.size();
    const std::string line = page.substr(at, end - at);
    at = end + 1;
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    if (!must_contain.empty() && line.find(must_contain) == std::string::npos) continue;
    const size_t core = line.find("core=\"");
    const size_t space = line.rfind(' ');
    if (core == std::string::npos || space == std::string::npos) continue;
    out[std::atoi(line.c_str() + core + 6)] += std::atol(line.c_str() + space + 1);
  }
  return out;
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(p / 100.0 * static_cast<double>(sorted.size()));
  return sorted[std::min(i, sorted.size() - 1)];
}

struct Stats {
  double p50, p90, p99, p999, max;
};
Stats stats_of(std::vector<double> us) {
  std::sort(us.begin(), us.end());
  return {percentile(us, 50), percentile(us, 90), percentile(us, 99), percentile(us, 99.9), us.empty() ? 0 : us.back()};
}

}  // namespace

int main(int argc, char** argv) {
  const int port = std::atoi(flag(argc, argv, "--port", "0"));
  const int admin_port = std::atoi(flag(argc, argv, "--admin-port", "0"));
  const int cores = std::atoi(flag(argc, argv, "--cores", "2"));
  const long requests = std::atol(flag(argc, argv, "--requests", "20000"));
  const long warmup = std::atol(flag(argc, argv, "--warmup", "2000"));
  const int runs_per_core = std::atoi(flag(argc, argv, "--runs-per-core", "2"));
  const int users_per_core = std::atoi(flag(argc, argv, "--users", "1000"));
  const std::string version = flag(argc, argv, "--version", "2025-11-01");
  if (port <= 0 || admin_port <= 0 || cores != 2 || requests < 2 || runs_per_core < 1 || users_per_core < 1) {
    std::fputs("usage: decisiond_cross_core_latency --port P --admin-port A [--cores 2] [--requests N]\n"
               "         [--warmup N] [--runs-per-core R] [--users K] [--version V]\n",
               stderr);
    return 2;
  }

  // The requests, built once: users_per_core users owned by each core, used in turn.
  std::vector<std::string> by_core[2];
  for (long i = 0; by_core[0].size() < static_cast<size_t>(users_per_core) ||
                   by_core[1].size() < static_cast<size_t>(users_per_core);
       ++i) {
    const std::string id = "x" + std::to_string(i);
    const uint32_t owner = caps::owner_core(caps::user_key(id), static_cast<uint32_t>(cores));
    if (by_core[owner].size() >= static_cast<size_t>(users_per_core)) continue;
    const std::string body = "{\"placements\":[{\"key\":\"home_top\",\"count\":2}],\"user\":{\"id\":\"" + id + "\"}}";
    std::string request = "POST /v1/decision HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
    if (!version.empty()) request += "X-Decision-Version: " + version + "\r\n";
    request += "Accept-Language: en\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    by_core[owner].push_back(std::move(request));
  }

  std::printf("%-4s  %-4s  %-9s  %7s  %8s  %8s  %8s  %8s  %8s  %s\n", "run", "core", "set", "n", "p50_us",
              "p90_us", "p99_us", "p99.9_us", "max_us", "handed over (forwarded counter delta)");
  std::vector<double> all_local, all_forwarded;
  std::vector<Stats> diffs;
  int landed[2] = {0, 0};
  int run = 0;
  for (int attempt = 0; attempt < 64 && (landed[0] < runs_per_core || landed[1] < runs_per_core); ++attempt) {
    const int fd = connect_to(port);
    std::string buf;
    size_t next[2] = {0, 0};
    auto send_one = [&](int owner) {
      write_all(fd, by_core[owner][next[owner]++ % by_core[owner].size()]);
      const int status = read_reply(fd, buf);
      if (status != 200) fail("decisiond answered a decision with status " + std::to_string(status));
    };
    send_one(0);  // the connection is accepted by now: find where it landed
    const std::map<int, long> open = metric_by_core(admin_port, "decisiond_http_connections_open", "listener=\"public\"");
    int core = -1;
    for (const auto& [c, n] : open) {
      if (n > 0) core = (core == -1) ? c : -2;
    }
    if (core < 0 || core > 1) fail("cannot tell which core the connection landed on (another client connected?)");
    if (landed[core] >= runs_per_core) {
      ::close(fd);
      continue;
    }
    ++landed[core];
    ++run;
    for (long i = 0; i < warmup; ++i) send_one(static_cast<int>(i & 1));
    const std::map<int, long> forwarded0 = metric_by_core(admin_port, "decisiond_decision_forwarded_total");
    std::vector<double> us[2];
    us[0].reserve(static_cast<size_t>(requests / 2 + 1));
    us[1].reserve(static_cast<size_t>(requests / 2 + 1));
    for (long i = 0; i < requests; ++i) {
      const int owner = static_cast<int>(i & 1);
      const auto t0 = std::chrono::steady_clock::now();
      send_one(owner);
      const auto t1 = std::chrono::steady_clock::now();
      us[owner].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    const std::map<int, long> forwarded1 = metric_by_core(admin_port, "decisiond_decision_forwarded_total");
    ::close(fd);
    long handed = 0;
    for (const auto& [c, n] : forwarded1) {
      handed += n - (forwarded0.count(c) ? forwarded0.at(c) : 0);
    }
    const std::vector<double>& local = us[core];
    const std::vector<double>& forwarded = us[1 - core];
    const Stats l = stats_of(local), f = stats_of(forwarded);
    std::printf("%-4d  %-4d  %-9s  %7zu  %8.1f  %8.1f  %8.1f  %8.1f  %8.1f\n", run, core, "local", local.size(), l.p50,
                l.p90, l.p99, l.p999, l.max);
    std::printf("%-4d  %-4d  %-9s  %7zu  %8.1f  %8.1f  %8.1f  %8.1f  %8.1f  %ld of %zu\n", run, core, "forwarded",
                forwarded.size(), f.p50, f.p90, f.p99, f.p999, f.max, handed, forwarded.size());
    std::printf("%-4d  %-4d  %-9s  %7s  %+8.1f  %+8.1f  %+8.1f  %+8.1f  %+8.1f\n", run, core, "diff", "", f.p50 - l.p50,
                f.p90 - l.p90, f.p99 - l.p99, f.p999 - l.p999, f.max - l.max);
    std::fflush(stdout);
    diffs.push_back({f.p50 - l.p50, f.p90 - l.p90, f.p99 - l.p99, f.p999 - l.p999, f.max - l.max});
    all_local.insert(all_local.end(), local.begin(), local.end());
    all_forwarded.insert(all_forwarded.end(), forwarded.begin(), forwarded.end());
  }
  if (landed[0] < runs_per_core || landed[1] < runs_per_core) {
    std::printf("note: after 64 connections, core 0 had %d runs and core 1 %d (asked: %d each)\n", landed[0],
                landed[1], runs_per_core);
  }
  const Stats l = stats_of(all_local), f = stats_of(all_forwarded);
  std::printf("\nall runs pooled (%zu local, %zu forwarded decisions):\n", all_local.size(), all_forwarded.size());
  std::printf("  %-9s  %8s  %8s  %8s  %8s\n", "", "p50_us", "p90_us", "p99_us", "p99.9_us");
  std::printf("  %-9s  %8.1f  %8.1f  %8.1f  %8.1f\n", "local", l.p50, l.p90, l.p99, l.p999);
  std::printf("  %-9s  %8.1f  %8.1f  %8.1f  %8.1f\n", "forwarded", f.p50, f.p90, f.p99, f.p999);
  std::printf("  %-9s  %+8.1f  %+8.1f  %+8.1f  %+8.1f\n", "diff", f.p50 - l.p50, f.p90 - l.p90, f.p99 - l.p99,
              f.p999 - l.p999);
  // The median over runs of each run's own difference: robust to one noisy run.
  auto median_of = [&](double Stats::*field) {
    std::vector<double> v;
    for (const Stats& s : diffs) v.push_back(s.*field);
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : (v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2);
  };
  std::printf("  %-9s  %+8.1f  %+8.1f  %+8.1f  %+8.1f  (median over the %zu runs of each run's difference)\n",
              "diff med", median_of(&Stats::p50), median_of(&Stats::p90), median_of(&Stats::p99),
              median_of(&Stats::p999), diffs.size());
  return 0;
}
