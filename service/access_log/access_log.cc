#include "service/access_log/access_log.h"

#include "service/access_log/access_line.h"

namespace service::access_log {

std::string core_directory(std::string_view state_dir, uint32_t core) {
  return std::string(state_dir) + "/access/core-" + std::to_string(core);
}

AccessLog::AccessLog(runtime::FileIo& io, runtime::TimerWheel& timers, const runtime::Clock& clock, uint32_t core,
                     AccessLogSettings settings)
    : clock_(clock), core_(core), sample_(settings.sample) {
  if (settings.sample <= 0) return;
  runtime::LineLogSettings line_settings;
  line_settings.directory = std::move(settings.directory);
  line_settings.flush_interval_ms = settings.flush_interval_ms;
  line_settings.file_bytes = settings.file_bytes;
  line_settings.max_pending_bytes = kMaxPendingBytes;
  log_.emplace(io, timers, clock, std::move(line_settings), counters_.refs());
}

absl::Status AccessLog::start() { return log_ ? log_->start() : absl::OkStatus(); }

void AccessLog::observe(http::Server& server, std::string_view listener) {
  if (!log_) return;
  taps_.push_back(std::make_unique<Tap>(*this, listener));
  server.observe(taps_.back().get(), sample_);
}

void AccessLog::close(std::function<void()> done) {
  if (!log_) {
    done();
    return;
  }
  log_->close(std::move(done));
}

void AccessLog::append(const http::CompletedRequest& completed, std::string_view listener) {
  if (!log_) return;
  const AccessRecord record = access_record(completed, clock_.wall_ns() / 1'000'000, core_, listener);
  log_->append([&record](std::string& out) {
    append_access_line(record, out);
    out.push_back('\n');
  });
}

}  // namespace service::access_log
