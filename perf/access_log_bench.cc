// The access log's cost (docs/access-log.md): what a request pays when the log is off (the
// default), when it is on at a 1% sample, and what each logged line costs to format into
// the log's buffer. The write itself is one batched ring write per loop turn for all the
// lines of that turn, as for the event log, and is not on the request's path.
#include <benchmark/benchmark.h>

#include <string>

#include "http/error_body.h"
#include "http/request_observer.h"
#include "http/response.h"
#include "http/router.h"
#include "http/server.h"
#include "perf/allocation_counter.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"
#include "service/access_log/access_line.h"

namespace {

http::Request tracking_request() {
  http::Request request;
  request.method = http::Method::kGet;
  request.method_text = "GET";
  request.target = "/v1/tracking?t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  request.path = "/v1/tracking";
  request.query = request.target.substr(13);
  request.headers[0] = {"Host", "ads.example.com"};
  request.headers[1] = {"Accept", "*/*"};
  request.headers[2] = {"User-Agent", "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile"};
  request.header_count = 3;
  return request;
}

// Formats the line as AccessLog::append does, into a buffer reused like the log's.
class FormattingObserver final : public http::RequestObserver {
 public:
  void on_request_completed(const http::CompletedRequest& completed) override {
    if (buffer.size() > (1u << 20)) buffer.clear();
    const service::access_log::AccessRecord record =
        service::access_log::access_record(completed, clock_.wall_ns() / 1'000'000, 0, "public");
    service::access_log::append_access_line(record, buffer);
    buffer.push_back('\n');
  }
  std::string buffer;

 private:
  const runtime::Clock& clock_ = runtime::SystemClock::instance();
};

// A core's server, never run: only its sampling decision is exercised.
struct IdleServer {
  IdleServer() : mailbox(1), reactor(0, mailbox, runtime::SystemClock::instance(), runtime::ReactorConfig{}),
                 server(reactor, router, http::HttpLimits{}) {}
  runtime::Mailbox mailbox;
  runtime::Reactor reactor;
  http::Router router;
  http::Server server;
};

http::CompletedRequest completed_of(const http::Request& request, const http::Response& reply) {
  http::CompletedRequest completed;
  completed.request = &request;
  completed.route = "tracking";
  completed.reply = &reply;
  completed.status = reply.status();
  completed.request_bytes = 212;
  completed.reply_bytes = 180;
  completed.latency_ns = 23'000;
  return completed;
}

// What Connection adds to each request for the log: `if (server.sample()) observe(...)`.
void request_path(benchmark::State& state, double sample) {
  IdleServer idle;
  FormattingObserver observer;
  observer.buffer.reserve(2u << 20);
  idle.server.observe(sample > 0 ? &observer : nullptr, sample);
  const http::Request request = tracking_request();
  http::Response reply;
  reply.set_status(204);
  const http::CompletedRequest completed = completed_of(request, reply);
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    if (idle.server.sample()) idle.server.observer()->on_request_completed(completed);
    benchmark::ClobberMemory();
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
}

void BM_AccessLogOffPerRequest(benchmark::State& state) { request_path(state, 0); }
BENCHMARK(BM_AccessLogOffPerRequest);

void BM_AccessLogOnePercentPerRequest(benchmark::State& state) { request_path(state, 0.01); }
BENCHMARK(BM_AccessLogOnePercentPerRequest);

void BM_AccessLogEveryRequestPerRequest(benchmark::State& state) { request_path(state, 1); }
BENCHMARK(BM_AccessLogEveryRequestPerRequest);

// One logged line: the record taken from the request (User-Agent looked up, error code
// read from an error body) and formatted, for a 400 10050 with its envelope.
void BM_AccessLogLine(benchmark::State& state) {
  const http::Request request = tracking_request();
  http::Response reply;
  http::set_error(reply, 400, 10050, "invalid tracking token");
  const http::CompletedRequest completed = completed_of(request, reply);
  FormattingObserver observer;
  observer.buffer.reserve(2u << 20);
  observer.on_request_completed(completed);
  const size_t line_bytes = observer.buffer.size();
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    observer.on_request_completed(completed);
    benchmark::DoNotOptimize(observer.buffer.data());
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
  state.counters["line_bytes"] = static_cast<double>(line_bytes);
}
BENCHMARK(BM_AccessLogLine);

}  // namespace
