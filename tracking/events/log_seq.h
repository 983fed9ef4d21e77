#pragma once
// The event log's sequence numbers (docs/events.md): the next line's; the first line held in
// memory, which names the file a rotation opens; the file being opened and the live one.
// A file is named by its first line, so start-up and readers find lines by file names alone.
// A number that went backwards (a sequence that wraps, a file named at or before the one
// before it, a line held for a file named after it) would hide lines from them silently:
// the checks stop the process instead (runtime/check.h).
#include <cstdint>

#include "runtime/check.h"

namespace tracking::events {

class LogSeq {
 public:
  explicit LogSeq(uint64_t next) : next_(next) {}

  // The number the next line will get: every line before it has been taken.
  uint64_t next() const { return next_; }

  // The next line's number. A line dropped past the pending bound consumes one as well.
  uint64_t take() {
    const uint64_t seq = next_++;
    DECISIOND_CHECK_MSG(next_ > seq, "event log: line seqs must increase (the sequence wrapped)");
    return seq;
  }

  // seq is now the first line held in memory: the one a file opened next starts with.
  void held_first(uint64_t seq) {
    DECISIOND_CHECK_MSG(!has_file_ || seq >= file_, "event log: a line held for a file named after it");
    first_held_ = seq;
  }

  // The number that names the next file: the first line held, or with none held the next.
  uint64_t name_next(bool lines_held) {
    naming_ = lines_held ? first_held_ : next_;
    return naming_;
  }
  // At start, a previous run's file has that name: the sequence moves on by one (numbers
  // are increasing, not gapless).
  void name_taken() { ++next_; }

  // The file named by the last name_next() is open.
  void file_opened() {
    DECISIOND_CHECK_MSG(!has_file_ || naming_ > file_, "event log: a file must start after the previous one");
    file_ = naming_;
    has_file_ = true;
  }

 private:
  uint64_t next_;
  uint64_t first_held_ = 0;  // valid while lines are held
  uint64_t naming_ = 0;      // of the file being opened
  uint64_t file_ = 0;        // the live file's first seq
  bool has_file_ = false;
};

}  // namespace tracking::events
