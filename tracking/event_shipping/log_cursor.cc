#include "tracking/event_shipping/log_cursor.h"

#include <algorithm>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/check.h"

namespace tracking::event_shipping {

namespace {
// Enough for {"seq":<20 digits>,"time_ms":<20 digits>.
constexpr size_t kHeadBytes = 96;
}  // namespace

bool parse_line_head(std::string_view line, uint64_t& seq, int64_t& time_ms) {
  constexpr std::string_view kSeq = "{\"seq\":";
  constexpr std::string_view kTime = ",\"time_ms\":";
  if (!line.starts_with(kSeq)) return false;
  const char* end = line.data() + line.size();
  const auto parsed_seq = std::from_chars(line.data() + kSeq.size(), end, seq);
  if (parsed_seq.ec != std::errc()) return false;
  const std::string_view rest(parsed_seq.ptr, static_cast<size_t>(end - parsed_seq.ptr));
  if (!rest.starts_with(kTime)) return false;
  const auto parsed_time = std::from_chars(rest.data() + kTime.size(), end, time_ms);
  return parsed_time.ec == std::errc() && parsed_time.ptr != rest.data() + kTime.size();
}

LogCursor::LogCursor(std::string core_directory, LogPosition position, uint64_t next_seq, CursorSettings settings)
    : directory_(std::move(core_directory)),
      settings_(settings),
      next_seq_(next_seq),
      file_first_seq_(position.file_first_seq),
      read_offset_(position.offset) {
  buffer_.resize(settings_.chunk_bytes);
}

LogCursor::~LogCursor() { close_file(); }

std::optional<ShippableLine> LogCursor::next(int64_t now_ms) {
  can_unread_ = false;
  while (true) {
    if (fd_ < 0 && !open_file()) return std::nullopt;
    const std::string_view rest(buffer_.data() + parsed_, used_ - parsed_);
    const size_t line_feed = rest.find('\n');
    // Zeros where a line should be: a hole, a write of the core's not landed while a later
    // one has (its writes may land in any order, runtime/line_log.h). It fills once that
    // write lands, so it is read again from here later; only once a later file exists is it
    // final (a write the disk never took, or a crash), and passed over as a torn line to
    // the line the later write starts.
    if (const size_t hole = rest.substr(0, line_feed).find('\0'); hole != std::string_view::npos) {
      if (!later_file_exists(now_ms)) {
        // What lands there later was not on disk at the last sync: synced again once read.
        synced_through_ = std::min(synced_through_, read_offset_ + parsed_);
        used_ = parsed_;
        return std::nullopt;
      }
      parsed_ += hole;
      while (parsed_ < used_ && buffer_[parsed_] == '\0') ++parsed_;
      ++torn_lines_;
      continue;
    }
    if (line_feed != std::string_view::npos) {
      const std::string_view line = rest.substr(0, line_feed);
      const LogPosition at = position();
      parsed_ += line_feed + 1;
      uint64_t seq = 0;
      int64_t time_ms = 0;
      if (!parse_line_head(line, seq, time_ms) || (any_returned_ && seq <= last_seq_)) {
        ++torn_lines_;
        continue;
      }
      if (seq < next_seq_) continue;
      returned_at_ = parsed_ - (line_feed + 1);
      last_seq_before_ = last_seq_;
      any_returned_before_ = any_returned_;
      can_unread_ = true;
      last_seq_ = seq;
      any_returned_ = true;
      return ShippableLine{seq, time_ms, line, at, static_cast<uint32_t>(line_feed + 1)};
    }
    if (refill()) continue;
    if (!error_.empty() || !at_final_end(now_ms)) return std::nullopt;
    move_to_next_file();
  }
}

void LogCursor::unread() {
  DECISIOND_CHECK_MSG(can_unread_, "event shipping: only the line next() just returned is put back");
  parsed_ = returned_at_;
  last_seq_ = last_seq_before_;
  any_returned_ = any_returned_before_;
  can_unread_ = false;
}

std::optional<int64_t> LogCursor::peek_time_ms() {
  uint64_t seq = 0;
  int64_t time_ms = 0;
  const std::string_view rest(buffer_.data() + parsed_, used_ - parsed_);
  const size_t line_feed = rest.find('\n');
  if (line_feed != std::string_view::npos) {
    if (parse_line_head(rest.substr(0, line_feed), seq, time_ms)) return time_ms;
    return std::nullopt;
  }
  if (fd_ < 0 && !open_file()) return std::nullopt;
  char head[kHeadBytes];
  const ssize_t n = ::pread(fd_, head, sizeof(head), static_cast<off_t>(read_offset_ + parsed_));
  if (n <= 0 || !parse_line_head(std::string_view(head, static_cast<size_t>(n)), seq, time_ms)) return std::nullopt;
  return time_ms;
}

bool LogCursor::open_file() {
  for (const events::LogFile& file : events::list_log_files(directory_)) {
    if (file.first_seq < file_first_seq_) continue;
    // The position's file, or (it is gone: removed once shipped) the first one after it.
    if (file.first_seq != file_first_seq_) read_offset_ = 0;
    fd_ = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      error_ = absl::StrCat("cannot open ", file.path, ": ", std::strerror(errno));
      return false;
    }
    file_first_seq_ = file.first_seq;
    used_ = parsed_ = 0;
    synced_through_ = 0;
    later_seen_ = false;
    listed_ms_ = -1;
    return true;
  }
  return false;
}

// Reads on from the first byte not consumed. True when it brought bytes not seen before,
// which are on disk by then.
bool LogCursor::refill() {
  const uint64_t from = read_offset_ + parsed_;
  const size_t had = used_ - parsed_;  // the start of a line seen before, without its end
  const ssize_t n = ::pread(fd_, buffer_.data(), buffer_.size(), static_cast<off_t>(from));
  read_offset_ = from;
  parsed_ = 0;
  used_ = n > 0 ? static_cast<size_t>(n) : 0;
  if (n < 0) {
    error_ = absl::StrCat("cannot read ", directory_, "/", events::log_file_name(file_first_seq_), ": ",
                          std::strerror(errno));
    return false;
  }
  if (used_ <= had) return false;
  if (from + used_ > synced_through_) {
    if (::fdatasync(fd_) != 0) {
      error_ = absl::StrCat("cannot sync ", directory_, "/", events::log_file_name(file_first_seq_), ": ",
                            std::strerror(errno));
      used_ = 0;
      return false;
    }
    synced_through_ = from + used_;
  }
  error_.clear();
  if (used_ == buffer_.size() && std::memchr(buffer_.data(), '\n', used_) == nullptr) {
    // A whole chunk without a line feed is no line this log writes: passed over.
    ++torn_lines_;
    read_offset_ += used_;
    used_ = 0;
  }
  return true;
}

// True when the open file will never hold another line: a later file exists, and a read
// after that was seen brought nothing new. What is left then without a line feed is torn.
bool LogCursor::at_final_end(int64_t now_ms) {
  if (!later_file_exists(now_ms)) return false;
  if (refill() || !error_.empty()) return false;
  if (used_ > parsed_) ++torn_lines_;
  return true;
}

bool LogCursor::later_file_exists(int64_t now_ms) {
  if (later_seen_) return true;
  if (listed_ms_ >= 0 && now_ms - listed_ms_ < settings_.list_interval_ms) return false;
  listed_ms_ = now_ms;
  for (const events::LogFile& file : events::list_log_files(directory_)) {
    if (file.first_seq > file_first_seq_) later_seen_ = true;
  }
  return later_seen_;
}

void LogCursor::move_to_next_file() {
  close_file();
  ++file_first_seq_;  // open_file() takes the first file from here on
  read_offset_ = 0;
  used_ = parsed_ = 0;
}

void LogCursor::close_file() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace tracking::event_shipping
