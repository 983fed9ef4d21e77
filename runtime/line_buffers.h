#pragma once
// The memory of a LineLog (runtime/line_log.h): the lines appended since the last hand-off
// (pending) and a small pool of batches handed to the kernel, each at its own file offset,
// of which `written` bytes have landed. Completions may come in any order: each batch is
// accounted on its own, and lines_in_kernel() moves only over the batches that landed
// whole with none unfinished before them, so "every line up to N is in the kernel" is true
// of the number it gives. The checks keep the accounting honest: a completion for more
// bytes than were submitted would make the held bytes wrap and skip data; one for a batch
// not in flight would count lines twice; a batch taken from a full pool would overwrite
// lines not yet written; a line without its line feed would run into the next one. Each
// stops the process (runtime/check.h) instead.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/check.h"

namespace runtime {

class LineBuffers {
 public:
  // Batches handed to the kernel and not yet landed whole, at most. A batch is one loop
  // turn's lines and a buffered write lands in microseconds, so on a healthy disk one or two
  // are in flight; sixteen unfinished means the disk has stalled (or refuses), and lines
  // then wait in pending until a batch lands (LineLog counts those turns, writes_waited).
  static constexpr size_t kMaxBatchesInFlight = 16;

  enum class State : uint8_t { kFree, kInFlight, kHeld, kDone };
  struct Batch {
    std::string bytes;
    size_t written = 0;     // bytes landed
    uint64_t offset = 0;    // in its file, of bytes[0]
    uint64_t end_line = 0;  // lines_appended() when it was taken: its last line's number
    uint64_t lines = 0;
    int fd = -1;
    State state = State::kFree;

    const char* unwritten_data() const { return bytes.data() + written; }
    size_t unwritten_bytes() const { return bytes.size() - written; }
    uint64_t unwritten_offset() const { return offset + written; }
  };

  // Every buffer reserved once so that a warm log appends without allocating (untouched
  // pages of a reservation cost no memory).
  explicit LineBuffers(size_t reserve_bytes) {
    pending_.reserve(reserve_bytes);
    for (Batch& b : batches_) b.bytes.reserve(reserve_bytes);
  }

  // format appends one whole line to the string it is given, its line feed included.
  template <typename Format>
  void append(Format&& format) {
    const size_t before = pending_.size();
    format(pending_);
    DECISIOND_CHECK_MSG(pending_.size() > before && pending_.back() == '\n',
                        "line log: a line must end with its line feed");
    ++pending_lines_;
    ++lines_appended_;
  }

  size_t pending_bytes() const { return pending_.size(); }
  uint64_t pending_lines() const { return pending_lines_; }
  uint64_t lines_appended() const { return lines_appended_; }
  uint64_t lines_in_kernel() const { return lines_in_kernel_; }
  // Appended and not yet landed. Cannot wrap: written() is the one place it shrinks.
  size_t held_bytes() const { return pending_.size() + unwritten_bytes_; }
  bool full() const { return taken_ == kMaxBatchesInFlight; }
  bool empty() const { return taken_ == 0; }

  // The pending lines become a batch for fd at offset: its slot, for written() and the rest.
  uint32_t take_pending(int fd, uint64_t offset) {
    DECISIOND_CHECK_MSG(!full(), "line log: a batch taken with every buffer in flight");
    const uint32_t slot = static_cast<uint32_t>((oldest_ + taken_) % kMaxBatchesInFlight);
    Batch& b = batches_[slot];
    DECISIOND_CHECK_MSG(b.state == State::kFree, "line log: a batch replaced before it was written");
    b.bytes.clear();
    b.bytes.swap(pending_);
    b.written = 0;
    b.offset = offset;
    b.lines = pending_lines_;
    b.end_line = lines_appended_;
    b.fd = fd;
    b.state = State::kInFlight;
    unwritten_bytes_ += b.bytes.size();
    pending_lines_ = 0;
    ++taken_;
    return slot;
  }

  const Batch& batch(uint32_t slot) const { return batches_[slot]; }

  // The batch's unwritten rest goes to the kernel (again).
  void submitted(uint32_t slot) {
    Batch& b = batches_[slot];
    DECISIOND_CHECK_MSG(b.state == State::kInFlight || b.state == State::kHeld,
                        "line log: a write submitted for a batch not held");
    b.state = State::kInFlight;
  }

  // bytes of the batch landed. Returns its lines when this completes it, else 0 (a short
  // write: the caller submits the rest at once). The batch leaves the flight either way.
  uint64_t written(uint32_t slot, size_t bytes) {
    Batch& b = in_flight(slot);
    DECISIOND_CHECK_MSG(bytes <= b.unwritten_bytes(), "line log: a write completed more bytes than were submitted");
    b.written += bytes;
    unwritten_bytes_ -= bytes;
    if (b.written < b.bytes.size()) {
      b.state = State::kHeld;
      return 0;
    }
    b.state = State::kDone;
    const uint64_t lines = b.lines;
    free_landed_prefix();
    return lines;
  }

  // The kernel refused the batch's write: it is kept, at its offset, for a retry.
  void refused(uint32_t slot) { in_flight(slot).state = State::kHeld; }

  // Calls f(slot) for each batch kept after a refusal, oldest first.
  template <typename F>
  void for_each_held(F&& f) const {
    for (size_t i = 0; i < taken_; ++i) {
      const uint32_t slot = static_cast<uint32_t>((oldest_ + i) % kMaxBatchesInFlight);
      if (batches_[slot].state == State::kHeld) f(slot);
    }
  }
  bool any_in_flight() const { return count(-1, State::kInFlight) > 0; }
  // Batches for fd not landed whole (in flight, or held after a refusal).
  bool unfinished_on(int fd) const { return count(fd, State::kInFlight) + count(fd, State::kHeld) > 0; }

  // Pending lines counted as landed without a write (a log writing to nowhere).
  uint64_t skip_pending() {
    const uint64_t lines = pending_lines_;
    pending_.clear();
    pending_lines_ = 0;
    if (empty()) lines_in_kernel_ = lines_appended_;
    return lines;
  }

  // Gives up everything held (a close on a disk that still refuses), with nothing in flight.
  // Returns the lines lost.
  uint64_t discard() {
    DECISIOND_CHECK_MSG(!any_in_flight(), "line log: batches discarded while in flight");
    uint64_t lines = pending_lines_;
    for (; taken_ > 0; --taken_, oldest_ = (oldest_ + 1) % kMaxBatchesInFlight) {
      Batch& b = batches_[oldest_];
      if (b.state == State::kHeld) lines += b.lines;
      b.bytes.clear();
      b.state = State::kFree;
    }
    unwritten_bytes_ = 0;
    pending_.clear();
    pending_lines_ = 0;
    return lines;
  }

 private:
  Batch& in_flight(uint32_t slot) {
    DECISIOND_CHECK_MSG(slot < kMaxBatchesInFlight && batches_[slot].state == State::kInFlight,
                        "line log: a write completion without a write in flight");
    return batches_[slot];
  }

  size_t count(int fd, State state) const {
    size_t n = 0;
    for (size_t i = 0; i < taken_; ++i) {
      const Batch& b = batches_[(oldest_ + i) % kMaxBatchesInFlight];
      if (b.state == state && (fd < 0 || b.fd == fd)) ++n;
    }
    return n;
  }

  // Landed batches at the front go back to the pool; the prefix of lines in the kernel
  // grows with them. A landed batch behind an unfinished one waits for it.
  void free_landed_prefix() {
    while (taken_ > 0 && batches_[oldest_].state == State::kDone) {
      Batch& b = batches_[oldest_];
      lines_in_kernel_ = b.end_line;
      b.bytes.clear();
      b.state = State::kFree;
      oldest_ = static_cast<uint32_t>((oldest_ + 1) % kMaxBatchesInFlight);
      --taken_;
    }
  }

  std::string pending_;
  uint64_t pending_lines_ = 0;
  uint64_t lines_appended_ = 0;
  uint64_t lines_in_kernel_ = 0;
  std::array<Batch, kMaxBatchesInFlight> batches_;
  uint32_t oldest_ = 0;  // slot of the oldest batch taken and not freed
  size_t taken_ = 0;
  size_t unwritten_bytes_ = 0;  // of the batches taken
};

}  // namespace runtime
