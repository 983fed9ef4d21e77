#pragma once
// The two buffers of a LineLog (runtime/line_log.h): the lines appended since the last write
// (pending) and the batch handed to the kernel, of which `written` bytes have landed. Their
// sizes and line counts are the log's pending accounting, and the checks keep it honest: a
// completion for more bytes than were submitted would make the held bytes wrap and skip
// data; a batch replaced before it is written would lose lines; a line without its line feed
// would run into the next one. Each stops the process (runtime/check.h) instead.
#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/check.h"

namespace runtime {

class LineBuffers {
 public:
  // Reserved once so that a warm log appends without allocating.
  explicit LineBuffers(size_t reserve_bytes) {
    pending_.reserve(reserve_bytes);
    batch_.reserve(reserve_bytes);
  }

  // format appends one whole line to the string it is given, its line feed included.
  template <typename Format>
  void append(Format&& format) {
    const size_t before = pending_.size();
    format(pending_);
    DECISIOND_CHECK_MSG(pending_.size() > before && pending_.back() == '\n',
                        "line log: a line must end with its line feed");
    ++pending_lines_;
  }

  size_t pending_bytes() const { return pending_.size(); }
  uint64_t pending_lines() const { return pending_lines_; }
  bool batch_unwritten() const { return written_ < batch_.size(); }
  const char* unwritten_data() const { return batch_.data() + written_; }
  size_t unwritten_bytes() const { return batch_.size() - written_; }
  // Appended and not yet written. Cannot wrap: written() is the one place written_ grows.
  size_t held_bytes() const { return pending_.size() + unwritten_bytes(); }

  // The pending lines become the batch.
  void take_pending() {
    DECISIOND_CHECK_MSG(!batch_unwritten(), "line log: a batch replaced before it was written");
    batch_.clear();
    written_ = 0;
    batch_.swap(pending_);
    batch_lines_ = pending_lines_;
    pending_lines_ = 0;
  }

  // bytes of the batch have landed. Returns the batch's lines when this completes it, else 0.
  uint64_t written(size_t bytes) {
    DECISIOND_CHECK_MSG(bytes <= unwritten_bytes(), "line log: a write completed more bytes than were submitted");
    written_ += bytes;
    if (batch_unwritten()) return 0;
    const uint64_t lines = batch_lines_;
    batch_lines_ = 0;
    return lines;
  }

  // Gives up everything held (a close on a disk that still refuses). Returns the lines lost.
  uint64_t discard() {
    const uint64_t lines = batch_lines_ + pending_lines_;
    batch_.clear();
    written_ = 0;
    batch_lines_ = 0;
    pending_.clear();
    pending_lines_ = 0;
    return lines;
  }

 private:
  std::string pending_;
  uint64_t pending_lines_ = 0;
  std::string batch_;
  size_t written_ = 0;
  uint64_t batch_lines_ = 0;  // of the batch, while some of it is unwritten
};

}  // namespace runtime
