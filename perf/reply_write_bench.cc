// The reply side of the hot path: serialising a small reply, and writing the error
// envelope that every rejected request carries. Buffers are reused as a connection
// reuses them, so the steady state allocates nothing.
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "http/error_body.h"
#include "http/reply_writer.h"
#include "http/response.h"
#include "perf/allocation_counter.h"

namespace {

// The IMF-fixdate the server caches once a second.
constexpr std::string_view kDate = "Sun, 06 Nov 1994 08:49:37 GMT";

// GET /healthz's reply: status line, Date, Content-Type, Content-Length, "ok\n".
void BM_AppendSmallReply(benchmark::State& state) {
  http::Response response;
  response.set_text(200, "ok\n");
  std::string out;
  out.reserve(4096);
  http::append_reply(out, response, kDate, false);
  const size_t reply_bytes = out.size();
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    out.clear();
    http::append_reply(out, response, kDate, false);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  allocations.report(state);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * reply_bytes));
  state.SetItemsProcessed(state.iterations());
  state.counters["reply_bytes"] = static_cast<double>(reply_bytes);
}
BENCHMARK(BM_AppendSmallReply);

// A 422 for one bad field: http::set_error clears the body and writes the envelope with
// http::JsonWriter, escaping the message and the field path.
void BM_WriteErrorEnvelope(benchmark::State& state) {
  http::Response response;
  http::set_error(response, 422, 10012, "count must be between 1 and 10", "/placements/0/count");
  const size_t body_bytes = response.body().size();
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    http::set_error(response, 422, 10012, "count must be between 1 and 10", "/placements/0/count");
    benchmark::DoNotOptimize(response.body().data());
    benchmark::ClobberMemory();
  }
  allocations.report(state);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body_bytes));
  state.SetItemsProcessed(state.iterations());
  state.counters["body_bytes"] = static_cast<double>(body_bytes);
}
BENCHMARK(BM_WriteErrorEnvelope);

}  // namespace
