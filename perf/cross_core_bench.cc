// The hop a decision makes when its user lives on another core (issue 9), without HTTP:
// two reactors on their own threads, core 0 sends a message to core 1, which answers at
// once; core 0 times each round trip. This is the mailbox (SPSC queue) and the
// IORING_OP_MSG_RING wake-up each way: what forwarding adds besides parsing the body again
// (BM_Decision's read step). Reports the percentiles of the round trip as counters.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "runtime/core_group.h"

namespace {

struct PingPong {
  std::vector<int64_t> round_trips_ns;
  size_t wanted = 0;
  int64_t sent_ns = 0;
  std::atomic<bool> done{false};
};

PingPong* game = nullptr;

void send_ping(runtime::Reactor& here);

void pong(runtime::Reactor& here, const runtime::Message&) {
  PingPong& g = *game;
  g.round_trips_ns.push_back(here.clock().monotonic_ns() - g.sent_ns);
  if (g.round_trips_ns.size() == g.wanted) {
    g.done.store(true, std::memory_order_release);
    return;
  }
  send_ping(here);
}

void ping(runtime::Reactor& here, const runtime::Message&) {
  runtime::Message back;
  back.run = &pong;
  (void)here.post(0, back);
}

void send_ping(runtime::Reactor& here) {
  runtime::Message m;
  m.run = &ping;
  game->sent_ns = here.clock().monotonic_ns();
  (void)here.post(1, m);
}

void start_on_core0(runtime::Reactor& here, const runtime::Message&) { send_ping(here); }

int64_t percentile(std::vector<int64_t> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

void BM_CrossCoreRoundTrip(benchmark::State& state) {
  runtime::CoreGroupConfig config;
  config.cores = 2;
  config.reactor.ring_entries = 256;
  config.reactor.recv_buffer_count = 16;
  config.reactor.recv_buffer_bytes = 1024;
  config.reactor.max_sockets = 4;
  runtime::CoreGroup group(config, runtime::SystemClock::instance());
  if (!group.start([](runtime::Reactor&) { return absl::OkStatus(); }, [](runtime::Reactor&) {}).ok()) {
    state.SkipWithError("reactors did not start");
    return;
  }
  PingPong g;
  g.wanted = 20'000;
  g.round_trips_ns.reserve(g.wanted);
  game = &g;
  for (auto _ : state) {
    g.round_trips_ns.clear();
    g.done.store(false);
    runtime::Message start;
    start.run = &start_on_core0;
    group.post_one_way(0, start);
    while (!g.done.load(std::memory_order_acquire)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  state.counters["p50_us"] = percentile(g.round_trips_ns, 0.50) / 1000.0;
  state.counters["p90_us"] = percentile(g.round_trips_ns, 0.90) / 1000.0;
  state.counters["p99_us"] = percentile(g.round_trips_ns, 0.99) / 1000.0;
  state.counters["p999_us"] = percentile(g.round_trips_ns, 0.999) / 1000.0;
  runtime::Message stop;
  stop.run = [](runtime::Reactor& here, const runtime::Message&) { here.request_stop(); };
  group.post_one_way(0, stop);
  group.post_one_way(1, stop);
  group.join();
  game = nullptr;
}
BENCHMARK(BM_CrossCoreRoundTrip)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace
