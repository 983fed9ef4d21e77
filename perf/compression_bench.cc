// What --compress costs and saves on the demo catalog (docs/performance.md "Compression"):
// decisions of the demo catalog made by its decision handler, then each reply body
// compressed per coding and level with the server's own compressors
// (http/content_coding/), the bytes saved reported beside the CPU. BM_DemoDecision is the
// decision alone, BM_DemoDecisionCompressed the decision and its reply compressed at the
// levels the server uses, so the two give the share compression adds to a decision.
//
// Two request shapes rotate over 64 users each: one placement with two creatives (about
// 2.6 KB of JSON) and every placement of the demo catalog with three (about 9 KB).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "caps/cap_partition.h"
#include "decision/catalog/loader.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/endpoint/decision_handler.h"
#include "decision/user_state/owner_core_route.h"
#include "http/content_coding/gzip_codec.h"
#include "http/content_coding/reply_compressor.h"
#include "http/content_coding/zstd_codec.h"
#include "perf/allocation_counter.h"
#include "perf/bench_keys.h"
#include "runtime/clock.h"
#include "service/demo_catalog.h"
#include "tracking/tokens/key_ring.h"

namespace perf_compression {

constexpr int kUsers = 64;

std::shared_ptr<const decision::endpoint::ServedCatalog> demo_catalog() {
  static const auto served = [] {
    decision::catalog::LoadResult loaded = decision::catalog::load_catalog(service::demo_catalog_json());
    if (!loaded.snapshot) {
      std::fprintf(stderr, "demo catalog refused: %s\n", loaded.errors.front().to_string().c_str());
      std::abort();
    }
    return decision::endpoint::make_served_catalog(loaded.snapshot);
  }();
  return served;
}

// shape 0: home_top with two creatives; 1: every placement with three.
std::string request_body(int shape, int user) {
  const std::string placements =
      shape == 0 ? R"([{"key":"home_top","count":2}])"
                 : R"([{"key":"home_top","count":3},{"key":"article_inline","count":3},)"
                   R"({"key":"sidebar","count":3},{"key":"video_preroll","count":3}])";
  return R"({"placements":)" + placements + R"(,"user":{"id":"user-)" + std::to_string(user * 7919) + R"("}})";
}

// One core's decision handler over the demo catalog, every user owned here.
struct DemoDecider {
  DemoDecider()
      : clock(1'795'737'600'000'000'000),  // 2026-11-27
        versions(api_versions::VersionTable::built_in()),
        ring(bench_ring()),
        keys(ring),
        handler(clock, 0, versions, keys, settings(), demo_catalog(),
                route, nullptr, nullptr) {
    request.method = http::Method::kPost;
    request.path = "/v1/decision";
    request.headers[0] = {"Content-Type", "application/json"};
    request.headers[1] = {"Accept-Language", "en"};
    request.headers[2] = {"Accept-Encoding", "gzip, deflate, br, zstd"};
    request.header_count = 3;
  }
  static decision::endpoint::DecisionSettings settings() {
    decision::endpoint::DecisionSettings s;
    s.base_url = "https://ads.example.com";
    s.seed = 1;
    return s;
  }
  // Decides body into response.
  void decide(const std::string& body) {
    request.body = body;
    response.reset();
    handler.handle(request, response);
  }

  const runtime::ManualClock clock;
  const api_versions::VersionTable versions;
  const tracking::KeyRing ring;
  tracking::CoreKeys keys;
  caps::CapPartition cap_partition;
  // Every user owned here, as on a core alone.
  decision::user_state::OwnerCoreRoute<decision::endpoint::DecisionAsk> route{"/v1/decision", cap_partition, 0,
                                                                              nullptr, nullptr, 0};
  decision::endpoint::DecisionHandler handler;
  http::Request request;
  http::Response response;
};

std::vector<std::string> request_bodies(int shape) {
  std::vector<std::string> bodies;
  for (int u = 0; u < kUsers; ++u) bodies.push_back(request_body(shape, u));
  return bodies;
}

// The reply bodies of a shape's requests, as the server would send them uncompressed.
const std::vector<std::string>& reply_bodies(int shape) {
  static std::vector<std::string> replies[2];
  if (replies[shape].empty()) {
    DemoDecider decider;
    for (const std::string& body : request_bodies(shape)) {
      decider.decide(body);
      if (decider.response.status() != 200) {
        std::fprintf(stderr, "demo decision refused: %s\n", decider.response.body().c_str());
        std::abort();
      }
      replies[shape].push_back(decider.response.body());
    }
  }
  return replies[shape];
}

// Compresses one body; the coded size.
struct Coder {
  Coder(int coding, int level) {
    if (coding == 0) {
      gzip = std::make_unique<http::content_coding::GzipCompressor>(level);
    } else {
      zstd = std::make_unique<http::content_coding::ZstdCompressor>(level);
    }
    out.resize(1 << 20);
  }
  size_t code(const std::string& body) {
    return gzip ? gzip->compress(body, out.data(), out.size()) : zstd->compress(body, out.data(), out.size());
  }
  std::unique_ptr<http::content_coding::GzipCompressor> gzip;
  std::unique_ptr<http::content_coding::ZstdCompressor> zstd;
  std::string out;
};

void report_bytes(benchmark::State& state, uint64_t body_bytes, uint64_t coded_bytes) {
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["body_bytes"] = static_cast<double>(body_bytes) / iterations;
  state.counters["coded_bytes"] = static_cast<double>(coded_bytes) / iterations;
  state.counters["saved_pct"] = body_bytes == 0 ? 0 : 100.0 * (1.0 - double(coded_bytes) / double(body_bytes));
}

// range(0): shape; range(1): 0 gzip, 1 zstd; range(2): level. One reply body per iteration.
void BM_CompressReply(benchmark::State& state) {
  const std::vector<std::string>& bodies = reply_bodies(static_cast<int>(state.range(0)));
  Coder coder(static_cast<int>(state.range(1)), static_cast<int>(state.range(2)));
  for (const std::string& body : bodies) coder.code(body);  // warm the contexts
  size_t next = 0;
  uint64_t body_bytes = 0;
  uint64_t coded_bytes = 0;
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    const std::string& body = bodies[next];
    next = (next + 1) % bodies.size();
    const size_t coded = coder.code(body);
    if (coded == 0) state.SkipWithError("did not compress");
    body_bytes += body.size();
    coded_bytes += coded;
    benchmark::DoNotOptimize(coder.out.data());
  }
  allocations.report(state);
  report_bytes(state, body_bytes, coded_bytes);
}
BENCHMARK(BM_CompressReply)
    ->ArgNames({"shape", "zstd", "level"})
    ->ArgsProduct({{0, 1}, {0}, {1, 4, 6, 9, 12}})
    ->ArgsProduct({{0, 1}, {1}, {1, 3, 6, 9, 19}});

// range(0): shape. The decision alone, as the reference for what compression adds.
void BM_DemoDecision(benchmark::State& state) {
  const std::vector<std::string> bodies = request_bodies(static_cast<int>(state.range(0)));
  DemoDecider decider;
  for (const std::string& body : bodies) decider.decide(body);
  size_t next = 0;
  uint64_t body_bytes = 0;
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    decider.decide(bodies[next]);
    next = (next + 1) % bodies.size();
    body_bytes += decider.response.body().size();
  }
  allocations.report(state);
  report_bytes(state, body_bytes, body_bytes);
}
BENCHMARK(BM_DemoDecision)->ArgName("shape")->Arg(0)->Arg(1);

// range(0): shape; range(1): 0 gzip, 1 zstd. The decision, then its reply compressed by the
// server's ReplyCompressor (kGzipLevel, kZstdLevel) as the connection asks for it.
void BM_DemoDecisionCompressed(benchmark::State& state) {
  const std::vector<std::string> bodies = request_bodies(static_cast<int>(state.range(0)));
  const bool zstd = state.range(1) == 1;
  http::content_coding::ContentCodingMetrics metrics;
  http::content_coding::ReplyCompressor compressor({.gzip = !zstd, .zstd = zstd}, metrics);
  DemoDecider decider;
  for (const std::string& body : bodies) {
    decider.decide(body);
    compressor.code_for(decider.request, decider.response);
  }
  size_t next = 0;
  uint64_t body_bytes = 0;
  uint64_t coded_bytes = 0;
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    decider.decide(bodies[next]);
    next = (next + 1) % bodies.size();
    const http::BodyCoding coding = compressor.code_for(decider.request, decider.response);
    if (coding.content_encoding.empty()) state.SkipWithError("not compressed");
    body_bytes += decider.response.body().size();
    coded_bytes += coding.coded.size();
    benchmark::DoNotOptimize(coding.coded.data());
  }
  allocations.report(state);
  report_bytes(state, body_bytes, coded_bytes);
}
BENCHMARK(BM_DemoDecisionCompressed)->ArgNames({"shape", "zstd"})->ArgsProduct({{0, 1}, {0, 1}});

}  // namespace perf_compression
