#include "tests/integration/overload/pipelined_load.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <string_view>

namespace integration {
namespace {

constexpr std::string_view kHeadEnd = "\r\n\r\n";
constexpr std::string_view kContentLength = "\r\nContent-Length: ";
constexpr std::string_view kRetryAfter = "\r\nRetry-After: 1\r\n";
constexpr std::string_view kShedCode = "\"code\":10098";
constexpr size_t kReadChunk = 64 * 1024;

int connect_to(uint16_t port, std::string& error) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    error = std::string("connect: ") + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

// Parses a decimal number at the front of text; -1 when there is none.
int64_t leading_number(std::string_view text) {
  int64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) value = value * 10 + (text[i] - '0');
  return i == 0 ? -1 : value;
}

}  // namespace

const char* kind_name(RequestKind kind) { return kind == RequestKind::kDecision ? "decision" : "tracking"; }

int64_t monotonic_ns() {
  timespec now;
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

int64_t quantile(std::vector<int64_t> values, double q) {
  if (values.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  const size_t index = std::min(values.size() - 1, rank == 0 ? 0 : rank - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(index), values.end());
  return values[index];
}

uint64_t KindResult::replies() const {
  uint64_t n = 0;
  for (const auto& [status, count] : statuses) n += count;
  return n;
}

uint64_t KindResult::count(int status) const {
  const auto it = statuses.find(status);
  return it == statuses.end() ? 0 : it->second;
}

uint64_t LoadResult::sent() const { return kinds[0].sent + kinds[1].sent; }
uint64_t LoadResult::count(int status) const { return kinds[0].count(status) + kinds[1].count(status); }

struct PipelinedLoad::ThreadState {
  struct Outstanding {
    int64_t generated_ns;
    uint64_t end_byte;  // where the request ends in the connection's byte stream
    RequestKind kind;
  };
  struct Connection {
    int fd = -1;
    std::string unsent;
    size_t unsent_from = 0;
    // Replies read but not yet framed: received[received_from, received_end).
    std::vector<char> received;
    size_t received_from = 0;
    size_t received_end = 0;
    std::deque<Outstanding> outstanding;
    uint64_t generated = 0;
    uint64_t generated_bytes = 0;
    uint64_t written_bytes = 0;
    uint64_t answered_bytes = 0;  // end of the last answered request
  };
  std::vector<Connection> connections;
  int epoll_fd = -1;
  LoadResult result;
};

PipelinedLoad::PipelinedLoad(LoadShape shape, RequestSet requests)
    : shape_(shape), requests_(std::move(requests)) {}

PipelinedLoad::~PipelinedLoad() {
  stop();
  drain_deadline_ns_.store(0);
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  for (auto& state : states_) {
    for (auto& c : state->connections) {
      if (c.fd >= 0) ::close(c.fd);
    }
    if (state->epoll_fd >= 0) ::close(state->epoll_fd);
  }
}

void PipelinedLoad::start() {
  states_.clear();
  for (int t = 0; t < shape_.threads; ++t) {
    auto state = std::make_unique<ThreadState>();
    state->epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
    states_.push_back(std::move(state));
  }
  for (int i = 0; i < shape_.connections; ++i) {
    ThreadState& state = *states_[static_cast<size_t>(i % shape_.threads)];
    ThreadState::Connection c;
    std::string error;
    c.fd = connect_to(shape_.port, error);
    if (c.fd < 0) {
      if (state.result.first_failure.empty()) state.result.first_failure = error;
      ++state.result.connection_failures;
      continue;
    }
    state.connections.push_back(std::move(c));
  }
  for (auto& state : states_) {
    for (uint32_t i = 0; i < state->connections.size(); ++i) {
      epoll_event event{};
      event.events = EPOLLIN;
      event.data.u32 = i;
      ::epoll_ctl(state->epoll_fd, EPOLL_CTL_ADD, state->connections[i].fd, &event);
    }
  }
  offering_.store(true);
  started_ns_ = monotonic_ns();
  for (auto& state : states_) threads_.emplace_back([this, s = state.get()] { run(*s); });
}

void PipelinedLoad::stop() {
  if (offering_.exchange(false)) stopped_ns_ = monotonic_ns();
}

LoadResult PipelinedLoad::finish(std::chrono::milliseconds drain) {
  stop();
  drain_deadline_ns_.store(monotonic_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(drain).count());
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  LoadResult merged;
  merged.offered_s = static_cast<double>(stopped_ns_ - started_ns_) / 1e9;
  for (auto& state : states_) {
    LoadResult& r = state->result;
    for (int k = 0; k < kRequestKinds; ++k) {
      KindResult& into = merged.kinds[k];
      KindResult& from = r.kinds[k];
      into.sent += from.sent;
      for (const auto& [status, count] : from.statuses) into.statuses[status] += count;
      into.accepted_latency_ns.insert(into.accepted_latency_ns.end(), from.accepted_latency_ns.begin(),
                                      from.accepted_latency_ns.end());
      into.shed_latency_ns.insert(into.shed_latency_ns.end(), from.shed_latency_ns.begin(), from.shed_latency_ns.end());
      into.shed_without_retry_after += from.shed_without_retry_after;
      into.shed_without_code += from.shed_without_code;
    }
    merged.client_cpu_s += r.client_cpu_s;
    merged.connection_failures += r.connection_failures;
    for (const auto& c : state->connections) merged.unanswered += c.outstanding.size();
    if (merged.first_failure.empty()) merged.first_failure = r.first_failure;
    if (merged.sample_shed_reply.empty()) merged.sample_shed_reply = r.sample_shed_reply;
  }
  return merged;
}

void PipelinedLoad::run(ThreadState& state) {
  LoadResult& result = state.result;
  uint64_t decision_cursor = 0, tracking_cursor = 0;
  std::vector<epoll_event> events(256);

  auto fail = [&](ThreadState::Connection& c, std::string why) {
    if (result.first_failure.empty()) result.first_failure = std::move(why);
    ++result.connection_failures;
    ::epoll_ctl(state.epoll_fd, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    c.fd = -1;
  };

  auto append_request = [&](ThreadState::Connection& c, int64_t now_ns) {
    const bool tracking = shape_.tracking_every > 0 && !requests_.tracking.empty() &&
                          c.generated % static_cast<uint64_t>(shape_.tracking_every) ==
                              static_cast<uint64_t>(shape_.tracking_every) - 1;
    const std::string& bytes = tracking ? requests_.tracking[tracking_cursor++ % requests_.tracking.size()]
                                        : requests_.decisions[decision_cursor++ % requests_.decisions.size()];
    const RequestKind kind = tracking ? RequestKind::kTracking : RequestKind::kDecision;
    c.unsent.append(bytes);
    c.generated_bytes += bytes.size();
    c.outstanding.push_back({now_ns, c.generated_bytes, kind});
    ++result.kinds[static_cast<int>(kind)].sent;
    ++c.generated;
  };

  auto generate = [&](ThreadState::Connection& c, int64_t now_ns) {
    if (c.outstanding.size() > static_cast<size_t>(shape_.window) / 2) return;
    while (c.outstanding.size() < static_cast<size_t>(shape_.window)) append_request(c, now_ns);
  };

  auto write_some = [&](ThreadState::Connection& c) {
    while (c.fd >= 0 && c.unsent_from < c.unsent.size()) {
      const uint64_t allowed_end = c.answered_bytes + shape_.max_unanswered_bytes;
      if (c.written_bytes >= allowed_end) break;
      const size_t length = static_cast<size_t>(
          std::min<uint64_t>(c.unsent.size() - c.unsent_from, allowed_end - c.written_bytes));
      const ssize_t n = ::send(c.fd, c.unsent.data() + c.unsent_from, length, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        c.unsent_from += static_cast<size_t>(n);
        c.written_bytes += static_cast<uint64_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n < 0 && errno == EINTR) continue;
      fail(c, std::string("send: ") + std::strerror(errno));
      return;
    }
    if (c.unsent_from == c.unsent.size()) {
      c.unsent.clear();
      c.unsent_from = 0;
    }
  };

  // Frames and counts every whole reply at the front of what was received.
  auto take_replies = [&](ThreadState::Connection& c, int64_t now_ns) {
    for (;;) {
      const std::string_view rest(c.received.data() + c.received_from, c.received_end - c.received_from);
      const size_t head_end = rest.find(kHeadEnd);
      if (head_end == std::string_view::npos) break;
      const std::string_view head = rest.substr(0, head_end + 2);  // keeps the last header's CRLF
      const int64_t status = rest.size() > 12 && rest.starts_with("HTTP/1.1 ") ? leading_number(rest.substr(9)) : -1;
      int64_t body_bytes = 0;
      const size_t length_at = head.find(kContentLength);
      if (length_at != std::string_view::npos) {
        body_bytes = leading_number(head.substr(length_at + kContentLength.size()));
      } else if (status != 204 && status != 304 && !(status >= 100 && status < 200)) {
        body_bytes = -1;
      }
      if (status < 0 || body_bytes < 0 || c.outstanding.empty()) {
        fail(c, "unreadable or unexpected reply: " + std::string(rest.substr(0, 80)));
        return;
      }
      const size_t total = head_end + kHeadEnd.size() + static_cast<size_t>(body_bytes);
      if (rest.size() < total) break;
      const ThreadState::Outstanding sent = c.outstanding.front();
      c.outstanding.pop_front();
      c.answered_bytes = sent.end_byte;
      KindResult& kind = result.kinds[static_cast<int>(sent.kind)];
      ++kind.statuses[static_cast<int>(status)];
      const int64_t latency_ns = now_ns - sent.generated_ns;
      if (status >= 200 && status < 300) {
        kind.accepted_latency_ns.push_back(latency_ns);
      } else if (status == 503) {
        kind.shed_latency_ns.push_back(latency_ns);
        // The head without its last CRLF pair still ends in one CRLF: search head + "\r\n".
        if (rest.substr(0, head_end + 4).find(kRetryAfter) == std::string_view::npos) ++kind.shed_without_retry_after;
        if (rest.substr(head_end, total - head_end).find(kShedCode) == std::string_view::npos) ++kind.shed_without_code;
        if (result.sample_shed_reply.empty()) result.sample_shed_reply = std::string(rest.substr(0, total));
      }
      c.received_from += total;
    }
    if (c.received_from == c.received_end) c.received_from = c.received_end = 0;
  };

  auto read_some = [&](ThreadState::Connection& c) {
    for (;;) {
      // Straight into the connection's buffer, which grows only for a reply longer than
      // what it has room for.
      if (c.received.size() - c.received_end < kReadChunk / 4) {
        if (c.received_from > 0) {
          std::memmove(c.received.data(), c.received.data() + c.received_from, c.received_end - c.received_from);
          c.received_end -= c.received_from;
          c.received_from = 0;
        }
        if (c.received.size() - c.received_end < kReadChunk / 4) c.received.resize(c.received_end + kReadChunk);
      }
      const size_t room = c.received.size() - c.received_end;
      const ssize_t n = ::recv(c.fd, c.received.data() + c.received_end, room, MSG_DONTWAIT);
      if (n > 0) {
        c.received_end += static_cast<size_t>(n);
        if (static_cast<size_t>(n) < room) break;
        take_replies(c, monotonic_ns());
        if (c.fd < 0) return;
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n < 0 && errno == EINTR) continue;
      take_replies(c, monotonic_ns());
      if (c.fd >= 0) fail(c, n == 0 ? "closed by the server" : std::string("recv: ") + std::strerror(errno));
      return;
    }
    take_replies(c, monotonic_ns());
  };

  for (;;) {
    const bool offering = offering_.load(std::memory_order_relaxed);
    const int64_t now_ns = monotonic_ns();
    for (auto& c : state.connections) {
      if (c.fd < 0) continue;
      if (offering) generate(c, now_ns);
      if (c.unsent_from < c.unsent.size()) write_some(c);
    }
    if (!offering) {
      bool waiting = false;
      for (const auto& c : state.connections) waiting = waiting || (c.fd >= 0 && !c.outstanding.empty());
      if (!waiting || now_ns >= drain_deadline_ns_.load()) {
        rusage usage;
        ::getrusage(RUSAGE_THREAD, &usage);
        result.client_cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                              static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
        return;
      }
    }
    const int n = ::epoll_wait(state.epoll_fd, events.data(), static_cast<int>(events.size()), offering ? 1 : 10);
    for (int i = 0; i < n; ++i) {
      ThreadState::Connection& c = state.connections[events[i].data.u32];
      if (c.fd >= 0) read_some(c);
    }
  }
}

}  // namespace integration
