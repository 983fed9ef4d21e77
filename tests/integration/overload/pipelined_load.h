#pragma once
// A load generator for overload tests: client threads, each with its own connections on
// non-blocking sockets and an epoll set, pipelining prebuilt requests and reading every
// reply, timed one by one from when it was generated. A closed loop: each connection keeps
// up to `window` requests outstanding and writes the next half-window once half are
// answered. A few connections with a short window measure the sustainable rate (the core
// always has work, yet never more than a fraction of a millisecond of it); many
// connections with deep windows hold far more work in front of the core than it can serve
// in the lag bound, and offer as fast as the server answers, shed replies included.
// The client stays cheap: requests are bytes built once and written many per send(), and
// replies are framed by scanning for the head's end and Content-Length.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace integration {

enum class RequestKind : uint8_t { kDecision = 0, kTracking = 1 };
inline constexpr int kRequestKinds = 2;
const char* kind_name(RequestKind kind);

struct LoadShape {
  uint16_t port = 0;
  int threads = 1;
  int connections = 1;  // over all threads
  int window = 1;       // requests outstanding per connection
  // Every n-th request of a connection is a tracking call (0: decisions only).
  int tracking_every = 0;
  // Bytes of requests written but not yet answered, per connection, beyond which a
  // connection writes nothing more until replies come: below the server's held-input bound
  // (http/limits.h max_input_backlog_bytes, 256 KiB), which cuts off a client that
  // pipelines far ahead of what it reads. What waits here is still timed from when it was
  // generated.
  size_t max_unanswered_bytes = 128u << 10;
};

// Whole requests, each with its own CRLFs; a connection cycles through them.
struct RequestSet {
  std::vector<std::string> decisions;
  std::vector<std::string> tracking;
};

struct KindResult {
  uint64_t sent = 0;
  std::map<int, uint64_t> statuses;       // replies by status code
  std::vector<int64_t> accepted_latency_ns;  // 2xx replies: generated to read
  std::vector<int64_t> shed_latency_ns;      // 503 replies
  uint64_t shed_without_retry_after = 0;     // 503s lacking "Retry-After: 1"
  uint64_t shed_without_code = 0;            // 503s whose body does not carry 10098

  uint64_t replies() const;
  uint64_t count(int status) const;
};

struct LoadResult {
  KindResult kinds[kRequestKinds];
  uint64_t unanswered = 0;          // sent, no reply before the end of the drain
  uint64_t connection_failures = 0;  // refused, closed by the server, unreadable replies
  std::string first_failure;
  std::string sample_shed_reply;    // the raw bytes of one 503, for a structural check
  double offered_s = 0;             // from start() to stop()
  double client_cpu_s = 0;          // the client threads' CPU time (user and system)

  const KindResult& of(RequestKind kind) const { return kinds[static_cast<int>(kind)]; }
  uint64_t sent() const;
  uint64_t count(int status) const;  // over both kinds
  double sent_per_s() const { return offered_s > 0 ? static_cast<double>(sent()) / offered_s : 0; }
};

class PipelinedLoad {
 public:
  PipelinedLoad(LoadShape shape, RequestSet requests);
  PipelinedLoad(const PipelinedLoad&) = delete;
  PipelinedLoad& operator=(const PipelinedLoad&) = delete;
  ~PipelinedLoad();

  // Connects every connection, then starts the threads.
  void start();
  // No request is generated after this returns (the moment the load stops); what was
  // already written is still read.
  void stop();
  // Waits until every reply is read or the drain bound passed, and merges the threads'
  // results.
  LoadResult finish(std::chrono::milliseconds drain = std::chrono::seconds(5));

 private:
  struct ThreadState;
  void run(ThreadState& state);

  LoadShape shape_;
  RequestSet requests_;
  std::vector<std::unique_ptr<ThreadState>> states_;
  std::vector<std::thread> threads_;
  std::atomic<bool> offering_{false};
  std::atomic<int64_t> drain_deadline_ns_{INT64_MAX};
  int64_t started_ns_ = 0;
  int64_t stopped_ns_ = 0;
};

// The q-quantile (0..1) of the values, by the nearest-rank method; 0 for none.
int64_t quantile(std::vector<int64_t> values, double q);
int64_t monotonic_ns();

}  // namespace integration
