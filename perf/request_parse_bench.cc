// http::RequestParser on the request shapes decisiond sees: wrk's bare GET, a decision
// POST as an SDK sends it, a pipelined burst, and a request split across small reads.
// One parser per benchmark, fed the same bytes again and again, as one keep-alive
// connection would be: that is the steady state, where parsing allocates nothing.
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "http/limits.h"
#include "http/request_parser.h"
#include "perf/allocation_counter.h"

namespace {

// What `wrk http://127.0.0.1:9090/healthz` sends.
constexpr std::string_view kSmallGet =
    "GET /healthz HTTP/1.1\r\n"
    "Host: 127.0.0.1:9090\r\n"
    "\r\n";

// 600 bytes: two placements with targeting, and the user, device and app contexts.
constexpr std::string_view kDecisionBody =
    R"({"placements":[{"key":"home_feed_top","count":2,"format":"native",)"
    R"("targeting":{"geo":[2988507,3017382],"location":[{"lat":48.8566,"lon":2.3522,)"
    R"("radius":25}],"custom":{"section":"sports","age_band":"25-34"}}},)"
    R"({"key":"article_inline","templateId":"template_42",)"
    R"("targeting":{"custom":{"topic":"football"}}}],)"
    R"("user":{"id":"u_7f3c9a2e41d84b6f9e0a1c5d2b7e8f90","ip":"203.0.113.57",)"
    R"("timezone":"Europe/Paris","consent":{"gdpr":"granted"}},)"
    R"("device":{"os":"Android","osVersion":"14","model":"Pixel 8","manufacturer":"Google"},)"
    R"("app":{"name":"Daily News","version":"7.12.3","bundle":"com.example.dailynews"}})";

std::string decision_post() {
  std::string r =
      "POST /v1/decision HTTP/1.1\r\n"
      "Host: ads.example.com\r\n"
      "User-Agent: DailyNews/7.12.3 (Android 14; Pixel 8) okhttp/4.12.0\r\n"
      "Accept: application/json\r\n"
      "Accept-Encoding: gzip\r\n"
      "Accept-Language: fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7\r\n"
      "Content-Type: application/json; charset=utf-8\r\n"
      "X-Decision-Version: 2025-11-01\r\n"
      "Connection: keep-alive\r\n"
      "Content-Length: ";
  r += std::to_string(kDecisionBody.size());
  r += "\r\n\r\n";
  r += kDecisionBody;
  return r;
}

std::string pipelined_gets(int count) {
  std::string r;
  for (int i = 0; i < count; ++i) r += kSmallGet;
  return r;
}

// Feeds every byte of `bytes`, in pieces of at most piece_bytes, to the parser and counts
// the complete requests. 0 on a parse error.
int parse_all(http::RequestParser& parser, std::string_view bytes, size_t piece_bytes) {
  int requests = 0;
  while (!bytes.empty()) {
    std::string_view piece = bytes.substr(0, piece_bytes);
    const size_t piece_size = piece.size();
    while (!piece.empty()) {
      const http::RequestParser::Step step = parser.feed(piece);
      if (step.event == http::RequestParser::Event::kError) return 0;
      if (step.event == http::RequestParser::Event::kRequest) {
        ++requests;
        benchmark::DoNotOptimize(parser.request().header_count);
        benchmark::DoNotOptimize(parser.request().body.data());
      }
      piece.remove_prefix(step.consumed);
    }
    bytes.remove_prefix(piece_size);
  }
  return requests;
}

void run_parser(benchmark::State& state, std::string_view bytes, int expected_requests,
                size_t piece_bytes) {
  const http::HttpLimits limits;
  http::RequestParser parser(limits);
  // The first pass checks the input and warms the parser's storage.
  if (parse_all(parser, bytes, piece_bytes) != expected_requests) {
    state.SkipWithError("the benchmark input did not parse as expected");
    return;
  }
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    benchmark::DoNotOptimize(parse_all(parser, bytes, piece_bytes));
  }
  allocations.report(state);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
  state.SetItemsProcessed(state.iterations() * expected_requests);
  state.counters["request_bytes"] = static_cast<double>(bytes.size()) / expected_requests;
}

void BM_ParseSmallGet(benchmark::State& state) {
  run_parser(state, kSmallGet, 1, kSmallGet.size());
}
BENCHMARK(BM_ParseSmallGet);

void BM_ParseDecisionPost(benchmark::State& state) {
  const std::string request = decision_post();
  run_parser(state, request, 1, request.size());
}
BENCHMARK(BM_ParseDecisionPost);

void BM_ParsePipelinedGets16(benchmark::State& state) {
  const std::string burst = pipelined_gets(16);
  run_parser(state, burst, 16, burst.size());
}
BENCHMARK(BM_ParsePipelinedGets16);

// Reads that return 64 bytes at a time: every field may be split, and the parser must
// stitch names, values and body back together.
void BM_ParseDecisionPostIn64BytePieces(benchmark::State& state) {
  const std::string request = decision_post();
  run_parser(state, request, 1, 64);
}
BENCHMARK(BM_ParseDecisionPostIn64BytePieces);

}  // namespace
