// A closed-loop HTTP/1.1 client for overload runs (perf/overload_load.sh): N kept-alive
// connections, plain or TLS, each sending its next decision when the last reply arrived,
// with each reply's latency kept by status. wrk reports one distribution over every reply,
// so at overload the fast 503s of shedding hide what the served decisions waited; this
// reports the served (2xx) p50/p99/p99.9 apart from the shed (503) count.
//
// A 503 with Retry-After pauses its connection for that long, as a client that backs off
// does (the JS client hands Retry-After to its caller); --retry-at-once resends at once, as
// wrk does, the worst case: a closed loop whose shed requests come straight back.
//
// With --idle each connection makes one decision, then stays open and silent until the end:
// what an idle kept-alive connection costs the server in memory (perf/tls_load.sh). The
// run's --seconds then count from the moment every connection is held (said on stderr as
// "all held"), so a reader of the server's memory can wait for the handshakes' transient
// memory to be returned, however long opening them took.
//
// With --flood=K it also keeps K handshakes in the air on other connections: each sends a
// recorded TLS ClientHello, reads what the server answers and closes, so the server pays
// for full handshakes (key share, signature) while the client pays almost nothing: a flood
// at several times what one core completes, during which the kept-alive connections'
// latency is what is measured.
//
// One thread, epoll, non-blocking sockets; TLS with OpenSSL, certificates not verified
// (the server's own test certificate). Prints one line of key=value pairs.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <queue>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  int connections = 64;
  int flood = 0;  // handshakes kept in the air on other connections
  double seconds = 10;
  double warmup_s = 2;  // replies before this are not counted
  bool tls = false;
  std::string body_file;  // one request body per line; @USER@ already substituted or not
  std::string path = "/v1/decision";
  std::string version = "2025-11-01";
  bool retry_at_once = false;
  bool idle = false;  // one decision per connection, then held open without a word
};

int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "overload_client: %s\n", what.c_str());
  std::exit(1);
}

enum class Kind : uint8_t { kKeptAlive, kFlood };

struct Conn {
  Kind kind = Kind::kKeptAlive;
  int fd = -1;
  SSL* ssl = nullptr;
  bool connected = false;     // TCP (and TLS for kept-alive) established
  std::string out;            // bytes still to send
  size_t out_sent = 0;
  std::string in;             // reply bytes read so far
  int64_t sent_us = 0;        // when the request's first byte was handed over
  size_t next_body = 0;
  bool held_idle = false;  // --idle: answered once, now held
};

struct Totals {
  std::vector<uint32_t> served_us;  // 2xx latencies after warm-up
  uint64_t shed = 0;                // 503
  uint64_t other = 0;               // any other status
  uint64_t errors = 0;              // connections reset, refused or closed mid-request
  uint64_t reconnects = 0;
  uint64_t flood_started = 0;
  uint64_t flood_answered = 0;      // the server sent its first flight
  uint64_t flood_refused = 0;       // closed with nothing sent back
};

class Client {
 public:
  explicit Client(Options o) : o_(std::move(o)) {}

  // --idle: how long opening every connection may take before the run ends without them.
  static constexpr int64_t kIdleOpeningLimitUs = 120'000'000;

  int run() {
    load_bodies();
    if (o_.tls) setup_tls();
    epoll_ = epoll_create1(0);
    if (epoll_ < 0) die("epoll_create1");
    conns_.resize(static_cast<size_t>(o_.connections + o_.flood));
    for (int i = 0; i < o_.connections; ++i) open(static_cast<size_t>(i), Kind::kKeptAlive);
    std::vector<epoll_event> events(1024);
    if (o_.flood > 0) {
      // The flood begins once every kept-alive connection is established: what is measured
      // is how established connections fare during it.
      const int64_t give_up_us = now_us() + 10'000'000;
      while (established() < o_.connections && now_us() < give_up_us) poll_once(events, 10);
    }
    for (int i = 0; i < o_.flood; ++i) open(static_cast<size_t>(o_.connections + i), Kind::kFlood);
    start_us_ = now_us();
    counting_from_us_ = start_us_ + static_cast<int64_t>(o_.warmup_s * 1e6);
    int64_t end_us = start_us_ + static_cast<int64_t>((o_.warmup_s + o_.seconds) * 1e6);
    if (o_.idle) end_us = start_us_ + kIdleOpeningLimitUs;  // until every connection is held
    bool all_held = false;
    while (now_us() < end_us) {
      poll_once(events, paused_.empty() && reopening_.empty() ? 100 : 1);
      if (o_.idle && !all_held && held_idle() == static_cast<size_t>(o_.connections)) {
        all_held = true;
        std::fprintf(stderr, "all held\n");
        end_us = now_us() + static_cast<int64_t>(o_.seconds * 1e6);
      }
    }
    report();
    return 0;
  }

 private:
  void load_bodies() {
    std::ifstream in(o_.body_file);
    if (!in) die("cannot read --body-file " + o_.body_file);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::ostringstream r;
      r << "POST " << o_.path << " HTTP/1.1\r\nHost: " << o_.host << "\r\nContent-Type: application/json\r\n";
      if (!o_.version.empty()) r << "X-Decision-Version: " << o_.version << "\r\n";
      r << "Content-Length: " << line.size() << "\r\n\r\n" << line;
      requests_.push_back(r.str());
    }
    if (requests_.empty()) die("no request body in " + o_.body_file);
  }

  void setup_tls() {
    ctx_ = SSL_CTX_new(TLS_client_method());
    if (ctx_ == nullptr) die("SSL_CTX_new");
    SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_NONE, nullptr);
    if (o_.flood > 0) record_client_hello();
  }

  // One ClientHello, as a fresh client would send it: replayed by every flood connection.
  void record_client_hello() {
    SSL* ssl = SSL_new(ctx_);
    BIO* rbio = BIO_new(BIO_s_mem());
    BIO* wbio = BIO_new(BIO_s_mem());
    SSL_set_bio(ssl, rbio, wbio);
    SSL_set_tlsext_host_name(ssl, "localhost");
    SSL_connect(ssl);  // wants to read the server's answer: the hello is in wbio
    char* data = nullptr;
    const long size = BIO_get_mem_data(wbio, &data);
    if (size <= 0) die("could not record a ClientHello");
    client_hello_.assign(data, static_cast<size_t>(size));
    SSL_free(ssl);
  }

  void open(size_t index, Kind kind) {
    Conn& c = conns_[index];
    c = Conn{};
    c.kind = kind;
    c.next_body = index % requests_.size();
    c.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c.fd < 0) die(std::string("socket: ") + std::strerror(errno));
    const int one = 1;
    setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (kind == Kind::kFlood) {
      // No TIME_WAIT pile-up from tens of thousands of short connections: close with RST.
      const linger l{1, 0};
      setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
      ++totals_.flood_started;
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(o_.port));
    inet_pton(AF_INET, o_.host.c_str(), &addr.sin_addr);
    if (connect(c.fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) < 0 && errno != EINPROGRESS) {
      ++totals_.errors;
      ::close(c.fd);
      c.fd = -1;
      return;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP;
    ev.data.u64 = index;
    epoll_ctl(epoll_, EPOLL_CTL_ADD, c.fd, &ev);
  }

  // A kept-alive connection that failed comes back after 100 to 200 ms, as a client that
  // backs off does (a refused or shed handshake would otherwise come straight back); a
  // flood connection at once.
  void close_and_reopen(size_t index) {
    Conn& c = conns_[index];
    if (c.ssl != nullptr) SSL_free(c.ssl);
    if (c.fd >= 0) ::close(c.fd);
    const Kind kind = c.kind;
    c.fd = -1;
    c.ssl = nullptr;
    c.connected = false;
    if (kind == Kind::kFlood) return open(index, kind);
    ++totals_.reconnects;
    jitter_ = jitter_ * 6364136223846793005ULL + 1442695040888963407ULL;
    reopening_.push({now_us() + 100'000 + static_cast<int64_t>((jitter_ >> 33) % 100'000), index});
  }

  void want(Conn& c, size_t index, bool write) {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | (write ? static_cast<uint32_t>(EPOLLOUT) : 0u);
    ev.data.u64 = index;
    epoll_ctl(epoll_, EPOLL_CTL_MOD, c.fd, &ev);
  }

  void on_event(size_t index, uint32_t events) {
    Conn& c = conns_[index];
    if (c.fd < 0) return;
    if (c.kind == Kind::kFlood) return on_flood_event(index, events);
    if (!c.connected) {
      if ((events & (EPOLLERR | EPOLLHUP)) != 0) {
        ++totals_.errors;
        return close_and_reopen(index);
      }
      if (o_.tls) {
        if (c.ssl == nullptr) {
          c.ssl = SSL_new(ctx_);
          SSL_set_fd(c.ssl, c.fd);
          SSL_set_tlsext_host_name(c.ssl, "localhost");
        }
        const int rc = SSL_connect(c.ssl);
        if (rc != 1) {
          const int err = SSL_get_error(c.ssl, rc);
          if (err == SSL_ERROR_WANT_READ) return want(c, index, false);
          if (err == SSL_ERROR_WANT_WRITE) return want(c, index, true);
          ERR_clear_error();
          ++totals_.errors;
          return close_and_reopen(index);
        }
      }
      c.connected = true;
      start_request(c);
    }
    if (!c.out.empty() && c.out_sent < c.out.size()) {
      if (!send_some(c)) return close_and_reopen(index);
      want(c, index, c.out_sent < c.out.size());
    }
    if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0 || (c.ssl != nullptr && SSL_pending(c.ssl) > 0)) {
      if (!read_replies(c)) {
        ++totals_.errors;
        return close_and_reopen(index);
      }
      if (c.out_sent < c.out.size()) want(c, index, true);
    }
  }

  // One wait on the sockets: their events handled, then the connections whose pause is due.
  void poll_once(std::vector<epoll_event>& events, int timeout_ms) {
    const int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout_ms);
    for (int i = 0; i < n; ++i) on_event(static_cast<size_t>(events[i].data.u64), events[i].events);
    resume_due();
  }

  int established() const {
    return static_cast<int>(std::count_if(conns_.begin(), conns_.begin() + o_.connections,
                                          [](const Conn& c) { return c.connected && c.fd >= 0; }));
  }

  void start_request(Conn& c) {
    c.out = requests_[c.next_body];
    c.next_body = (c.next_body + 1) % requests_.size();
    c.out_sent = 0;
    c.sent_us = now_us();
    send_some(c);
  }

  bool send_some(Conn& c) {
    while (c.out_sent < c.out.size()) {
      const char* data = c.out.data() + c.out_sent;
      const size_t left = c.out.size() - c.out_sent;
      ssize_t n;
      if (c.ssl != nullptr) {
        const int rc = SSL_write(c.ssl, data, static_cast<int>(left));
        if (rc <= 0) {
          const int err = SSL_get_error(c.ssl, rc);
          if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) return true;
          ERR_clear_error();
          return false;
        }
        n = rc;
      } else {
        n = ::send(c.fd, data, left, MSG_NOSIGNAL);
        if (n < 0) return errno == EAGAIN;
      }
      c.out_sent += static_cast<size_t>(n);
    }
    return true;
  }

  // Reads what is there; for each whole reply, counts it and sends the next request.
  // False when the connection is gone.
  bool read_replies(Conn& c) {
    char buffer[16384];
    for (;;) {
      ssize_t n;
      if (c.ssl != nullptr) {
        const int rc = SSL_read(c.ssl, buffer, sizeof(buffer));
        if (rc <= 0) {
          const int err = SSL_get_error(c.ssl, rc);
          if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) break;
          ERR_clear_error();
          return false;
        }
        n = rc;
      } else {
        n = ::recv(c.fd, buffer, sizeof(buffer), 0);
        if (n == 0) return false;
        if (n < 0) {
          if (errno == EAGAIN) break;
          return false;
        }
      }
      c.in.append(buffer, static_cast<size_t>(n));
    }
    for (;;) {
      const size_t head_end = c.in.find("\r\n\r\n");
      if (head_end == std::string::npos) return true;
      const size_t length_at = find_header(c.in, head_end, "content-length:");
      if (length_at == std::string::npos) return false;
      const size_t length = std::strtoul(c.in.c_str() + length_at, nullptr, 10);
      if (c.in.size() < head_end + 4 + length) return true;
      const int status = std::atoi(c.in.c_str() + 9);
      const bool close = find_header(c.in, head_end, "connection: close") != std::string::npos;
      const size_t retry_at = find_header(c.in, head_end, "retry-after:");
      const int retry_after_s = retry_at == std::string::npos ? 0 : std::atoi(c.in.c_str() + retry_at);
      c.in.erase(0, head_end + 4 + length);
      count(status, now_us() - c.sent_us);
      if (close) return false;
      if (o_.idle) {
        c.held_idle = true;
        return true;
      }
      if (status == 503 && retry_after_s > 0 && !o_.retry_at_once) {
        paused_.push({now_us() + retry_after_s * 1'000'000LL, static_cast<size_t>(&c - conns_.data())});
        return true;
      }
      start_request(c);
    }
  }

  static size_t find_header(const std::string& in, size_t head_end, const char* name) {
    const size_t name_size = std::strlen(name);
    for (size_t at = 0; at + name_size <= head_end;) {
      const size_t line = in.find("\r\n", at);
      if (line == std::string::npos || line > head_end) return std::string::npos;
      const size_t start = line + 2;
      if (start + name_size <= head_end + 2 && strncasecmp(in.c_str() + start, name, name_size) == 0) {
        size_t value = start + name_size;
        while (value < in.size() && in[value] == ' ') ++value;
        return value;
      }
      at = start;
    }
    return std::string::npos;
  }

  void count(int status, int64_t latency_us) {
    if (now_us() < counting_from_us_) return;
    if (status >= 200 && status < 300) {
      totals_.served_us.push_back(static_cast<uint32_t>(std::min<int64_t>(latency_us, UINT32_MAX)));
    } else if (status == 503) {
      ++totals_.shed;
    } else {
      ++totals_.other;
    }
  }

  // Connections whose Retry-After has passed send their next request; failed ones whose
  // pause has passed connect again.
  void resume_due() {
    const int64_t now = now_us();
    while (!reopening_.empty() && reopening_.top().first <= now) {
      const size_t index = reopening_.top().second;
      reopening_.pop();
      open(index, Kind::kKeptAlive);
    }
    while (!paused_.empty() && paused_.top().first <= now) {
      const size_t index = paused_.top().second;
      paused_.pop();
      Conn& c = conns_[index];
      if (c.fd < 0 || !c.connected) continue;
      start_request(c);
      want(c, index, c.out_sent < c.out.size());
    }
  }

  void on_flood_event(size_t index, uint32_t events) {
    Conn& c = conns_[index];
    if (!c.connected) {
      if ((events & (EPOLLERR | EPOLLHUP)) != 0) {
        ++totals_.flood_refused;
        return close_and_reopen(index);
      }
      c.connected = true;
      c.out = client_hello_;
      c.out_sent = 0;
      if (!send_some(c)) {
        ++totals_.flood_refused;
        return close_and_reopen(index);
      }
      return want(c, index, c.out_sent < c.out.size());
    }
    if ((events & EPOLLOUT) != 0 && c.out_sent < c.out.size()) {
      send_some(c);
      want(c, index, c.out_sent < c.out.size());
    }
    if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
      char buffer[4096];
      const ssize_t n = ::recv(c.fd, buffer, sizeof(buffer), 0);
      if (n < 0 && errno == EAGAIN) return;
      // The server's first flight came (it did the key exchange and signed), or it closed.
      if (n > 0) {
        ++totals_.flood_answered;
      } else {
        ++totals_.flood_refused;
      }
      close_and_reopen(index);
    }
  }

  void report() {
    std::vector<uint32_t>& v = totals_.served_us;
    std::sort(v.begin(), v.end());
    const auto pct = [&](double p) -> double {
      if (v.empty()) return 0;
      return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))] / 1000.0;
    };
    const double secs = (static_cast<double>(now_us() - counting_from_us_)) / 1e6;
    std::printf(
        "served=%zu served_per_s=%.0f served_p50_ms=%.2f served_p99_ms=%.2f served_p999_ms=%.2f shed=%llu "
        "shed_per_s=%.0f other=%llu errors=%llu reconnects=%llu flood_started=%llu flood_answered=%llu "
        "flood_refused=%llu idle=%llu\n",
        v.size(), static_cast<double>(v.size()) / secs, pct(0.50), pct(0.99), pct(0.999),
        static_cast<unsigned long long>(totals_.shed), static_cast<double>(totals_.shed) / secs,
        static_cast<unsigned long long>(totals_.other), static_cast<unsigned long long>(totals_.errors),
        static_cast<unsigned long long>(totals_.reconnects), static_cast<unsigned long long>(totals_.flood_started),
        static_cast<unsigned long long>(totals_.flood_answered),
        static_cast<unsigned long long>(totals_.flood_refused),
        static_cast<unsigned long long>(held_idle()));
  }

  size_t held_idle() const {
    return static_cast<size_t>(
        std::count_if(conns_.begin(), conns_.end(), [](const Conn& c) { return c.held_idle && c.fd >= 0; }));
  }

  Options o_;
  int epoll_ = -1;
  SSL_CTX* ctx_ = nullptr;
  std::string client_hello_;
  std::vector<std::string> requests_;
  std::vector<Conn> conns_;
  Totals totals_;
  using Due = std::priority_queue<std::pair<int64_t, size_t>, std::vector<std::pair<int64_t, size_t>>, std::greater<>>;
  Due paused_;     // (when, connection): waiting out a Retry-After
  Due reopening_;  // (when, connection): failed, connecting again then
  uint64_t jitter_ = 88172645463325252ULL;
  int64_t start_us_ = 0;
  int64_t counting_from_us_ = 0;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (name == "--host") o.host = value;
    else if (name == "--port") o.port = std::atoi(value.c_str());
    else if (name == "--connections") o.connections = std::atoi(value.c_str());
    else if (name == "--flood") o.flood = std::atoi(value.c_str());
    else if (name == "--seconds") o.seconds = std::atof(value.c_str());
    else if (name == "--warmup") o.warmup_s = std::atof(value.c_str());
    else if (name == "--tls") o.tls = true;
    else if (name == "--retry-at-once") o.retry_at_once = true;
    else if (name == "--idle") o.idle = true;
    else if (name == "--body-file") o.body_file = value;
    else if (name == "--path") o.path = value;
    else if (name == "--version") o.version = value;
    else die("unknown argument " + arg);
  }
  if (o.port <= 0) die("--port is required");
  if (o.flood > 0 && !o.tls) die("--flood needs --tls");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parse(argc, argv);
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  setrlimit(RLIMIT_NOFILE, &files);
  return Client(std::move(options)).run();
}
