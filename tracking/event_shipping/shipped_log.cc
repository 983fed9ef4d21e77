#include "tracking/event_shipping/shipped_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tracking/events/log_files.h"

namespace tracking::event_shipping {

namespace {
// The last line of a file is within this many bytes of its end.
constexpr size_t kTailBytes = 8192;

// The checkpoint on disk: none, or one (a file that is not one counts as one at the log's
// start, with everything it may cover to be read back).
std::optional<ShipCheckpoint> checkpoint_on_disk(const std::string& directory, std::string* problem) {
  absl::StatusOr<std::optional<ShipCheckpoint>> read = read_checkpoint(directory);
  if (read.ok()) return *read;
  *problem = absl::StrCat(read.status().message(), ": shipping this log from its start, after reading back what "
                                                   "the stream holds of it");
  return ShipCheckpoint{};
}

// The seq the next line written will have, from the newest file's last whole line (or its
// name when it holds none); 0 without files.
uint64_t next_written_seq(const std::vector<events::LogFile>& files) {
  for (size_t i = files.size(); i > 0; --i) {
    const events::LogFile& file = files[i - 1];
    const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    std::string tail;
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      const size_t bytes = std::min<size_t>(kTailBytes, static_cast<size_t>(st.st_size));
      tail.resize(bytes);
      const ssize_t n = ::pread(fd, tail.data(), bytes, st.st_size - static_cast<off_t>(bytes));
      tail.resize(n > 0 ? static_cast<size_t>(n) : 0);
    }
    ::close(fd);
    const size_t end = tail.rfind('\n');
    if (end == std::string::npos) return file.first_seq;  // no whole line yet
    const size_t start = tail.rfind('\n', end == 0 ? 0 : end - 1);
    uint64_t seq = 0;
    int64_t time_ms = 0;
    const size_t from = start == std::string::npos || start == end ? 0 : start + 1;
    if (parse_line_head(std::string_view(tail).substr(from, end - from), seq, time_ms)) return seq + 1;
    return file.first_seq;
  }
  return 0;
}
}  // namespace

ShippedLog::ShippedLog(uint32_t core, std::string directory, CursorSettings cursor, std::string* problem)
    : core_(core),
      directory_(std::move(directory)),
      written_(checkpoint_on_disk(directory_, problem)),
      window_(written_.value_or(ShipCheckpoint{})),
      cursor_(directory_, written_.value_or(ShipCheckpoint{}).position, written_.value_or(ShipCheckpoint{}).next_seq,
              cursor) {
  // Lines published after the checkpoint may be in the stream: found by a read-back first.
  needs_read_back_ = written_.has_value();
  read_back_floor_ = written_.value_or(ShipCheckpoint{}).stream_floor;
}

ShippedLog::~ShippedLog() {
  if (run_fd_ >= 0) ::close(run_fd_);
}

absl::Status ShippedLog::save_checkpoint(uint64_t floor_now) {
  const ShipCheckpoint now = checkpoint(floor_now);
  if (written_ && *written_ == now) return absl::OkStatus();
  const bool first = !written_;
  absl::Status saved = write_checkpoint(directory_, now, first);
  if (saved.ok()) written_ = now;
  return saved;
}

uint64_t ShippedLog::start_again(uint64_t floor_now) {
  const uint64_t again = window_.republish_unacknowledged();
  if (again > 0 && !needs_read_back_) {
    needs_read_back_ = true;
    read_back_floor_ = checkpoint(floor_now).stream_floor;
  }
  return again;
}

uint64_t ShippedLog::found_in_stream(const std::vector<FoundRun>& found, uint64_t stream_last_seq) {
  const bool made_again = stream_last_seq < read_back_floor_;
  SeqRanges ranges;
  for (const FoundRun& run : found) {
    if (!made_again && run.stream_seq <= read_back_floor_) continue;
    if (run.last_seq < window_.next_seq()) continue;
    ranges.emplace_back(std::max(run.first_seq, window_.next_seq()), run.last_seq);
  }
  // Ascending and disjoint, adjacent ones joined: a run held whole in two found is found.
  std::sort(ranges.begin(), ranges.end());
  SeqRanges joined;
  uint64_t lines = 0;
  for (const auto& range : ranges) {
    if (!joined.empty() && range.first <= joined.back().second + 1) {
      joined.back().second = std::max(joined.back().second, range.second);
    } else {
      joined.push_back(range);
    }
  }
  for (const auto& [first, last] : joined) lines += last - first + 1;
  window_.acknowledge_in_stream(joined);
  // The rest lies ahead of the window: lines the cursor has not read yet.
  in_stream_.clear();
  for (const auto& [first, last] : joined) {
    const uint64_t from = window_.empty() ? first : std::max(first, window_.last_seq_held() + 1);
    if (from <= last) in_stream_.emplace_back(from, last);
  }
  in_stream_next_ = 0;
  needs_read_back_ = false;
  return lines;
}

bool ShippedLog::take_in_stream(uint64_t seq) {
  while (in_stream_next_ < in_stream_.size() && in_stream_[in_stream_next_].second < seq) ++in_stream_next_;
  if (in_stream_next_ >= in_stream_.size()) {
    in_stream_.clear();
    in_stream_next_ = 0;
    return false;
  }
  return in_stream_[in_stream_next_].first <= seq;
}

bool ShippedLog::read_run(const RunExtent& run, std::string& out) {
  if (run_fd_ < 0 || run_file_ != run.position.file_first_seq) {
    if (run_fd_ >= 0) ::close(run_fd_);
    run_file_ = run.position.file_first_seq;
    run_fd_ = ::open(events::log_file_path(directory_, run_file_).c_str(), O_RDONLY | O_CLOEXEC);
    if (run_fd_ < 0) return false;
  }
  out.resize(run.length);
  const ssize_t n = ::pread(run_fd_, out.data(), run.length, static_cast<off_t>(run.position.offset));
  if (n != static_cast<ssize_t>(run.length) || out.empty() || out.back() != '\n') return false;
  out.pop_back();
  return true;
}

LogBacklog ShippedLog::backlog() {
  LogBacklog backlog;
  const std::vector<events::LogFile> files = events::list_log_files(directory_);
  const LogPosition from = checkpoint(0).position;
  for (const events::LogFile& file : files) {
    if (file.first_seq < from.file_first_seq) continue;
    struct stat st {};
    if (::stat(file.path.c_str(), &st) != 0) continue;
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    const uint64_t skip = file.first_seq == from.file_first_seq ? std::min(size, from.offset) : 0;
    backlog.bytes += size - skip;
  }
  const uint64_t written_next = next_written_seq(files);
  backlog.lines = written_next > window_.next_seq() ? written_next - window_.next_seq() : 0;
  if (!window_.empty()) {
    backlog.oldest_ms = window_.oldest().extent.time_ms;
  } else if (backlog.bytes > 0) {
    backlog.oldest_ms = cursor_.peek_time_ms().value_or(0);
  }
  return backlog;
}

}  // namespace tracking::event_shipping
