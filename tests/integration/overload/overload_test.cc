// Overload (issue 12 point 3; docs/operations.md "Overload"): a core whose loop lags by
// more than --shed-lag answers new decisions 503 10098 with Retry-After at once instead of
// queueing them without end, sheds tracking calls only past 4 times the lag (they carry
// money), never sheds the admin plane, counts what it sheds, and serves again as soon as
// the load stops.
//
// One core (--cores=1) and an in-process load generator (pipelined_load.h). The sustainable
// rate is measured first, in the same test: a closed loop of a few connections with short
// pipelines, every reply 200. The overload is then many connections with deep pipelines,
// which keep tens of thousands of requests in front of the core (about a second of its
// sustainable work) and send a new one for every reply, so they offer as fast as the core
// answers; the test checks that this is several times the sustainable rate. Deep pipelines
// cost the client little (many requests per send()), which matters on a two-CPU machine
// where the client threads and the server share the CPUs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/metrics_scrape.h"
#include "tests/integration/metrics_text.h"
#include "tests/integration/overload/pipelined_load.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"
#include "tests/support/sanitizers.h"

namespace integration {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

// The bound under test, passed to the server as --shed-lag: the bounds asserted below are
// derived from it.
constexpr milliseconds kShedLag{20};
// http/limits.h kShedLateFactor: tracking calls are shed only this many times further behind.
constexpr int kShedLateFactor = 4;

// The p99 of accepted requests under overload. The loop admits decisions for at most
// kShedLag of each turn and tracking calls until kShedLateFactor * kShedLag; the rest of
// what the turn read is answered 503 at a small fraction of a decision's cost, and what
// arrives meanwhile waits in the kernel for the next turn. So an accepted request waits at
// most about one turn before being read and one more before being answered: two turns of
// (kShedLateFactor + 1) * kShedLag of admitted work plus the 503s, about 200 ms at 20 ms.
// The server thread shares the machine's two CPUs with the client threads (and whatever
// else runs there), which stretches its turns in wall time, and the clients may read a
// reply late: hence a generous 50 * kShedLag, and never under 1 s. A core that did not
// shed would make each request wait for every one ahead of it, the whole pipelined load
// at the sustainable rate (printed as "without shedding").
// Under ASan (make sanitize) every request and every 503 costs about 3.6 times more (the
// sustainable rate measured here falls from about 79,000 to 22,000 a second on CI's two
// cores), so a turn holding the same admitted lag answers its 503s that much slower: the
// bound scales by kSanitizerSlowdown. Measured there: p99 1.4 s; in Release: 0.28 s.
constexpr int kSanitizerSlowdown = decision::testing::kAddressSanitizer ? 4 : 1;
constexpr nanoseconds accepted_p99_bound() {
  return kSanitizerSlowdown * std::max<nanoseconds>(seconds(1), 50 * kShedLag);
}

// Issue 12: the first decision after the load stops is answered 200 within a second.
constexpr milliseconds kRecoveryBound{1000};

constexpr auto kSustainPhase = seconds(2);
constexpr int kSustainConnections = 4;
constexpr int kSustainWindow = 8;  // 32 requests in flight: the core never waits for the client

constexpr auto kOverloadPhase = seconds(5);
constexpr int kOverloadConnections = 128;
constexpr int kOverloadThreads = 2;
constexpr int kOverloadWindow = 448;  // ~100 KiB of requests: under the generator's unanswered-bytes bound
// "Several times the sustainable rate": the least the overload must offer for the test to
// prove anything (measured: about 4 times).
constexpr double kLeastOverloadFactor = 2;
constexpr int kTrackingEvery = 8;  // one request in 8 is an impression call

constexpr uint64_t kPlacement = 7;

std::string overload_catalog() {
  std::vector<TestAd> ads;
  for (uint64_t id = 1; id <= 8; ++id) ads.push_back({.id = id, .placement_ids = {kPlacement}});
  return test_catalog_json({{kPlacement, "home_top"}}, ads);
}

std::string decision_request(int user) {
  const std::string body =
      R"({"placements":[{"key":"home_top","count":3}],"user":{"id":"overload-)" + std::to_string(user) + R"("}})";
  return post_request("/v1/decision", body, "Accept-Language: en\r\n");
}

RequestSet decisions_only() {
  RequestSet set;
  for (int user = 0; user < 64; ++user) set.decisions.push_back(decision_request(user));
  return set;
}

// Impression calls with valid tokens from decisions made before the load; a token called
// again is a duplicate, answered 204 all the same (docs/tracking.md).
std::vector<std::string> impression_calls(const ServerProcess& server, int decisions) {
  std::vector<std::string> calls;
  for (int i = 0; i < decisions; ++i) {
    const CurlReply reply = decide(server, "overload-" + std::to_string(i), 3);
    if (reply.status != 200) continue;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (!c.impression.empty()) calls.push_back(get_request("/v1/tracking?t=" + c.impression));
    }
  }
  return calls;
}

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

double fraction(uint64_t part, uint64_t whole) { return whole == 0 ? 0 : static_cast<double>(part) / whole; }

std::optional<double> shed_counter(const ServerProcess& server) {
  return sum_samples(scrape_metrics(server), "decisiond_http_limit_hits_total",
                     {{"listener", "public"}, {"limit", "overload_shed"}});
}

std::optional<double> route_503s(const std::string& page, const char* route) {
  return sum_samples(page, "decisiond_http_requests_total",
                     {{"listener", "public"}, {"route", route}, {"status", "503"}});
}

// GET /healthz and /metrics on the admin listener, each on a fresh connection, every
// 50 ms while the load runs: never shed, so every probe must be answered 200.
class AdminProbe {
 public:
  explicit AdminProbe(const ServerProcess& server) : port_(server.admin_port()) {
    thread_ = std::thread([this] { run(); });
  }
  ~AdminProbe() { stop(); }
  void stop() {
    stopping_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  int probes = 0;
  int answered_200 = 0;
  int64_t slowest_ns = 0;
  std::string first_failure;

 private:
  void run() {
    static constexpr const char* kPaths[] = {"/healthz", "/metrics"};
    for (int i = 0; !stopping_.load(); ++i) {
      const int64_t started = monotonic_ns();
      RawConnection connection(port_);
      std::optional<HttpReply> reply;
      if (connection.connected() && connection.send(get_request(kPaths[i % 2]))) reply = connection.read_reply();
      ++probes;
      slowest_ns = std::max(slowest_ns, monotonic_ns() - started);
      if (reply && reply->status == 200) {
        ++answered_200;
      } else if (first_failure.empty()) {
        first_failure = std::string(kPaths[i % 2]) + ": " + (reply ? reply->status_line : connection.last_error());
      }
      // The probe's own pace, an operator's every 50 ms: it waits for nothing of the server's.
      std::this_thread::sleep_for(milliseconds(50));
    }
  }
  uint16_t port_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// From the moment the load stops, decisions on a fresh connection until one is answered
// 200: how long that took, or nullopt past `give_up`. Counts the 503s it got meanwhile.
std::optional<nanoseconds> time_to_first_200(const ServerProcess& server, int64_t load_stopped_ns,
                                             milliseconds give_up, uint64_t& shed_seen) {
  const std::string request = decision_request(0);
  std::optional<RawConnection> connection;
  while (monotonic_ns() - load_stopped_ns < std::chrono::duration_cast<nanoseconds>(give_up).count()) {
    if (!connection || !connection->connected()) connection.emplace(server.public_port());
    std::optional<HttpReply> reply;
    if (connection->send(request)) reply = connection->read_reply(give_up);
    if (!reply) {
      connection.reset();
      continue;
    }
    if (reply->status == 200) return nanoseconds(monotonic_ns() - load_stopped_ns);
    if (reply->status == 503) ++shed_seen;
  }
  return std::nullopt;
}

void print_phase(const char* phase, const LoadResult& r) {
  for (int k = 0; k < kRequestKinds; ++k) {
    const KindResult& kind = r.kinds[k];
    if (kind.sent == 0) continue;
    std::printf("  %s %s: sent %llu (%.0f/s), 2xx %llu, 503 %llu (%.1f%%), accepted p50 %.1f ms p99 %.1f ms max %.1f ms\n",
                phase, kind_name(static_cast<RequestKind>(k)), static_cast<unsigned long long>(kind.sent),
                static_cast<double>(kind.sent) / r.offered_s,
                static_cast<unsigned long long>(kind.accepted_latency_ns.size()),
                static_cast<unsigned long long>(kind.count(503)), 100 * fraction(kind.count(503), kind.replies()),
                ms(quantile(kind.accepted_latency_ns, 0.5)), ms(quantile(kind.accepted_latency_ns, 0.99)),
                ms(quantile(kind.accepted_latency_ns, 1.0)));
  }
}

std::vector<std::string> overload_flags(const TempFile& catalog) {
  return standard_flags({"--cores=1", "--catalog=" + catalog.path(),
                         "--shed-lag=" + std::to_string(kShedLag.count()) + "ms"});
}

TEST(Overload, SeveralTimesTheSustainableRateShedsDecisionsFirstKeepsLatencyBoundedAndRecoversWithinASecond) {
  const TempFile catalog("catalog.json", overload_catalog());
  ServerProcess server(overload_flags(catalog));
  ASSERT_TRUE(server.serving()) << server.start_error();

  RequestSet requests = decisions_only();
  requests.tracking = impression_calls(server, 100);
  ASSERT_GE(requests.tracking.size(), 100u);

  // 1. The sustainable rate: a closed loop of a few connections, each with a short
  // pipeline, keeps the core busy without ever holding more than a fraction of a
  // millisecond of work in front of it.
  PipelinedLoad sustain({.port = server.public_port(), .threads = 1, .connections = kSustainConnections,
                         .window = kSustainWindow},
                        decisions_only());
  sustain.start();
  std::this_thread::sleep_for(kSustainPhase);  // the phase's length: time itself, for a rate
  const LoadResult sustained = sustain.finish();
  ASSERT_EQ(sustained.connection_failures, 0u) << sustained.first_failure;
  const double sustainable_per_s =
      static_cast<double>(sustained.of(RequestKind::kDecision).accepted_latency_ns.size()) / sustained.offered_s;
  std::printf("sustainable (closed loop, %d connections x %d in flight): %.0f decisions/s\n", kSustainConnections,
              kSustainWindow, sustainable_per_s);
  print_phase("sustain", sustained);
  ASSERT_GT(sustainable_per_s, 100.0) << "the server hardly answers at all";

  // 2. The overload: many connections with deep pipelines, one request in kTrackingEvery
  // an impression call, while the admin plane is probed.
  PipelinedLoad overload({.port = server.public_port(), .threads = kOverloadThreads,
                          .connections = kOverloadConnections, .window = kOverloadWindow,
                          .tracking_every = kTrackingEvery},
                         requests);
  AdminProbe admin(server);
  overload.start();
  std::this_thread::sleep_for(kOverloadPhase);  // the phase's length: time itself, for a rate
  overload.stop();
  const int64_t load_stopped_ns = monotonic_ns();

  // 3. Recovery, timed from the moment the load stopped (the generator writes nothing more).
  uint64_t recovery_sheds = 0;
  const std::optional<nanoseconds> recovered = time_to_first_200(server, load_stopped_ns, seconds(3), recovery_sheds);
  const LoadResult overloaded = overload.finish();
  admin.stop();

  const KindResult& decisions = overloaded.of(RequestKind::kDecision);
  const KindResult& tracking = overloaded.of(RequestKind::kTracking);
  const double in_flight = static_cast<double>(kOverloadConnections) * kOverloadWindow;
  std::printf("overload (%d connections x %d in flight, %d threads): offered %.0f/s = %.1f x sustainable, "
              "client CPU %.1f s; without shedding each request would wait about %.0f ms\n",
              kOverloadConnections, kOverloadWindow, kOverloadThreads, overloaded.sent_per_s(),
              overloaded.sent_per_s() / sustainable_per_s, overloaded.client_cpu_s,
              1000 * in_flight / sustainable_per_s);
  print_phase("overload", overloaded);
  std::printf("admin probes %d, answered 200 %d, slowest %.1f ms; recovery %s %.1f ms (503s meanwhile: %llu)\n",
              admin.probes, admin.answered_200, ms(admin.slowest_ns), recovered ? "after" : "NOT within 3 s,",
              recovered ? ms(recovered->count()) : 0.0, static_cast<unsigned long long>(recovery_sheds));

  // The server stays up, every connection was served to the end, and the clients really
  // offered several times the sustainable rate.
  EXPECT_FALSE(server.wait_for_exit(milliseconds(0)).has_value()) << server.stderr_text();
  EXPECT_EQ(overloaded.connection_failures, 0u) << overloaded.first_failure;
  EXPECT_EQ(overloaded.unanswered, 0u);
  EXPECT_GE(overloaded.sent_per_s(), kLeastOverloadFactor * sustainable_per_s)
      << "the client could not offer several times the sustainable rate; the test proves nothing";

  // Decisions are shed: 503 10098 with Retry-After and the error envelope; nothing else fails.
  EXPECT_GT(decisions.count(503), 0u);
  EXPECT_EQ(decisions.count(200) + decisions.count(503), decisions.replies());
  EXPECT_EQ(tracking.count(204) + tracking.count(503), tracking.replies());
  EXPECT_EQ(decisions.shed_without_retry_after + tracking.shed_without_retry_after, 0u);
  EXPECT_EQ(decisions.shed_without_code + tracking.shed_without_code, 0u);
  ASSERT_FALSE(overloaded.sample_shed_reply.empty());
  const ParsedReply sample = parse_reply(overloaded.sample_shed_reply);
  ASSERT_EQ(sample.outcome, ParsedReply::Outcome::kComplete) << sample.error;
  EXPECT_EQ(sample.reply.status, 503);
  EXPECT_EQ(sample.reply.header("Retry-After"), "1");
  EXPECT_FALSE(sample.reply.closes_connection());
  EXPECT_TRUE(IsErrorEnvelope(sample.reply.body, 10098));

  // Tracking last: the fraction of tracking calls shed is at most that of decisions.
  EXPECT_LE(fraction(tracking.count(503), tracking.replies()), fraction(decisions.count(503), decisions.replies()));
  EXPECT_GT(tracking.count(204), 0u);

  // Accepted requests keep a bounded latency (see accepted_p99_bound).
  std::vector<int64_t> accepted = decisions.accepted_latency_ns;
  accepted.insert(accepted.end(), tracking.accepted_latency_ns.begin(), tracking.accepted_latency_ns.end());
  ASSERT_FALSE(accepted.empty());
  EXPECT_LE(quantile(accepted, 0.99), accepted_p99_bound().count())
      << "p99 of accepted requests " << ms(quantile(accepted, 0.99)) << " ms";

  // The admin plane was answered throughout. The probes are serial, so how many fit in the
  // load's seconds depends on the machine (9 under the sanitizers beside a build): the count
  // only shows the plane was probed, more than once, while the load ran.
  EXPECT_GE(admin.probes, 3);
  EXPECT_EQ(admin.answered_200, admin.probes) << admin.first_failure;

  // Recovery within a second of the load stopping.
  ASSERT_TRUE(recovered.has_value());
  EXPECT_LE(*recovered, kRecoveryBound);

  // Every shed request is counted: the server's count equals the 503s the clients read
  // (one core, so no 503 comes from a cross-core bound; every reply was read).
  const std::string page = scrape_metrics(server);
  const uint64_t clients_saw = sustained.count(503) + overloaded.count(503) + recovery_sheds;
  EXPECT_EQ(sum_samples(page, "decisiond_http_limit_hits_total", {{"listener", "public"}, {"limit", "overload_shed"}}),
            static_cast<double>(clients_saw));
  EXPECT_EQ(route_503s(page, "decision").value_or(0),
            static_cast<double>(sustained.count(503) + decisions.count(503) + recovery_sheds));
  EXPECT_EQ(route_503s(page, "tracking").value_or(0), static_cast<double>(tracking.count(503)));
}

// A burst of decisions pipelined in one write on one connection is shed request by
// request: the turn that reads it admits requests until the lag passes, answers the rest
// 503 in order on the same connection, which stays open and is served again afterwards.
TEST(Overload, APipelinedBurstOnOneConnectionIsShedRequestByRequest) {
  const TempFile catalog("catalog.json", overload_catalog());
  // 500 µs (4 times that under ASan): about 30 decisions' work. The burst's bytes reach the
  // socket at once, so every request of one receive buffer (8 KiB, about 65 requests, a
  // millisecond of work) has waited since the same instant: the first are answered, those
  // the core reaches past the bound are shed, whichever turn reads them.
  const std::string shed_lag = "--shed-lag=" + std::to_string(500 * kSanitizerSlowdown) + "us";
  ServerProcess server(standard_flags({"--cores=1", "--catalog=" + catalog.path(), shed_lag}));
  ASSERT_TRUE(server.serving()) << server.start_error();

  constexpr int kBurst = 1000;
  std::string burst;
  for (int i = 0; i < kBurst; ++i) burst += decision_request(i);
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.connected());
  // A core preempted before it reaches the first request sheds the whole burst (right: it
  // waited), which a loaded test machine does at times: up to 5 bursts, one must show both.
  uint64_t shed_total = 0;
  bool mixed = false;
  for (int attempt = 0; attempt < 5 && !mixed; ++attempt) {
    std::atomic<bool> sent{false};
    std::thread sender([&] { sent = connection.send(burst); });
    std::vector<int> statuses;
    for (int i = 0; i < kBurst; ++i) {
      const std::optional<HttpReply> reply = connection.read_reply();
      ASSERT_TRUE(reply.has_value()) << "reply " << i << ": " << connection.last_error();
      statuses.push_back(reply->status);
      ASSERT_TRUE(reply->status == 200 || reply->status == 503) << reply->status_line;
      EXPECT_FALSE(reply->closes_connection());
      if (reply->status == 503) {
        EXPECT_EQ(reply->header("Retry-After"), "1");
        EXPECT_TRUE(IsErrorEnvelope(reply->body, 10098));
      }
    }
    sender.join();
    ASSERT_TRUE(sent.load());
    const auto shed = static_cast<uint64_t>(std::count(statuses.begin(), statuses.end(), 503));
    shed_total += shed;
    std::printf("burst of %d: %llu shed, first shed at %ld\n", kBurst, static_cast<unsigned long long>(shed),
                static_cast<long>(std::find(statuses.begin(), statuses.end(), 503) - statuses.begin()));
    mixed = shed > 0 && shed < kBurst;
  }
  EXPECT_TRUE(mixed) << "no burst was both admitted in part and shed in part";

  // The same connection is served again once the burst is answered.
  ASSERT_TRUE(connection.send(decision_request(0)));
  const std::optional<HttpReply> after = connection.read_reply();
  ASSERT_TRUE(after.has_value()) << connection.last_error();
  EXPECT_EQ(after->status, 200);
  EXPECT_EQ(shed_counter(server), static_cast<double>(shed_total));
}

// What a request waited before the core could read it counts: the kernel's receive time,
// not the turn that read it. A request that came while the core was stopped (as it is
// behind a backlog the kernel holds at overload, docs/performance.md "Overload") is shed
// however short the turn that reads it; the next, fresh one is served.
TEST(Overload, ARequestThatWaitedInTheKernelPastTheBoundIsShedEvenInAShortTurn) {
  ServerProcess server(standard_flags({"--cores=1", "--shed-lag=50ms"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.connected());
  // Accepted first, so that only the request waits.
  ASSERT_EQ(wait_for_metric(server, "decisiond_http_connections_open", {{"listener", "public"}}, 1), 1.0);
  ASSERT_TRUE(server.stop_all_threads());
  ASSERT_TRUE(connection.send(decision_request(0)));
  std::this_thread::sleep_for(milliseconds(300));  // six times the bound, in the socket
  server.send_signal(SIGCONT);
  const std::optional<HttpReply> late = connection.read_reply();
  ASSERT_TRUE(late.has_value()) << connection.last_error();
  EXPECT_EQ(late->status, 503) << late->body;
  EXPECT_TRUE(IsErrorEnvelope(late->body, 10098)) << late->body;
  EXPECT_EQ(late->header("Retry-After"), "1");
  ASSERT_TRUE(connection.send(decision_request(1)));
  const std::optional<HttpReply> fresh = connection.read_reply();
  ASSERT_TRUE(fresh.has_value()) << connection.last_error();
  EXPECT_EQ(fresh->status, 200) << fresh->body;
  EXPECT_EQ(shed_counter(server), 1.0);
}

}  // namespace
}  // namespace integration
