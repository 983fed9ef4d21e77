#pragma once
// One core's access log (docs/access-log.md): a sample of the requests its servers answer,
// one JSON line each (access_line.h), in <state-dir>/access/core-<N>/. http/ hands every
// sampled request to a tap (http::RequestObserver) when its reply is queued; the line is
// formatted into memory and written with the core's other file work by runtime::LineLog:
// off the request path, batched per loop turn, never waiting for the disk. With a sample of
// 0 nothing is opened and no server is observed: a request then costs one branch.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "http/request_observer.h"
#include "http/server.h"
#include "runtime/clock.h"
#include "runtime/file_io.h"
#include "runtime/line_log.h"
#include "runtime/timer_wheel.h"

namespace service::access_log {

// Lines held in memory per core while the disk refuses; past this they are dropped and
// counted (decisiond_access_log_dropped_total). Smaller than the event log's 64 MiB: the
// access log is a sample for operators, not a record anything is rebuilt from.
inline constexpr size_t kMaxPendingBytes = 8u << 20;

struct AccessLogSettings {
  double sample = 0;          // --access-log-sample: fraction of requests logged, 0..1
  std::string directory;      // this core's: <state-dir>/access/core-<N>
  int64_t flush_interval_ms = 1000;    // --events-flush
  uint64_t file_bytes = 256ull << 20;  // --events-file-bytes
};

std::string core_directory(std::string_view state_dir, uint32_t core);

class AccessLog {
 public:
  AccessLog(runtime::FileIo& io, runtime::TimerWheel& timers, const runtime::Clock& clock, uint32_t core,
            AccessLogSettings settings);

  bool enabled() const { return log_.has_value(); }
  // Opens the first file (core set-up). A refusing disk does not stop the start: lines are
  // held and the open retried; the status says why, for one line on stderr.
  absl::Status start();
  // Samples the requests server answers, labelled listener (which must outlive the log).
  // Does nothing when disabled. Before serving.
  void observe(http::Server& server, std::string_view listener);
  // Shutdown: writes and syncs what is held, then done (at once when disabled).
  void close(std::function<void()> done);

  // Counters for /metrics; all zero when disabled.
  const runtime::LineLogCounters& counters() const { return counters_; }

  // Formats and appends the line of one completed request (taps call it; public for tests
  // and the benchmark).
  void append(const http::CompletedRequest& completed, std::string_view listener);

 private:
  class Tap final : public http::RequestObserver {
   public:
    Tap(AccessLog& log, std::string_view listener) : log_(log), listener_(listener) {}
    void on_request_completed(const http::CompletedRequest& completed) override { log_.append(completed, listener_); }

   private:
    AccessLog& log_;
    std::string_view listener_;
  };

  const runtime::Clock& clock_;
  const uint32_t core_;
  const double sample_;
  runtime::LineLogCounters counters_;
  std::optional<runtime::LineLog> log_;
  std::vector<std::unique_ptr<Tap>> taps_;
};

}  // namespace service::access_log
