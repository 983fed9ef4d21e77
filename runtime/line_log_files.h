#pragma once
// How a LineLog (runtime/line_log.h) names its files, and what their owner hears of them.
// The writer owns the mechanism (open, write, sync, rotate, retry); a log whose file names
// mean something (the event log names each file by the sequence number of its first line,
// docs/events.md) says so here. WallClockFiles is the plain case: names by opening time.
#include <cstdint>
#include <string>

#include "runtime/clock.h"

namespace runtime {

class LineLogFiles {
 public:
  virtual ~LineLogFiles() = default;

  // The name (no directory) of the next file, created with O_EXCL. lines_held: appended
  // lines wait for it (a rotation, or a first file opened late), else it starts empty.
  virtual std::string next_name(bool lines_held) = 0;
  // At start, when the name next_name() gave exists: true to write into it if it is empty
  // (a previous run opened it and wrote nothing). Otherwise name_taken() is called and
  // next_name() asked again, which must then give another name.
  virtual bool reuse_empty_file() const = 0;
  virtual void name_taken() = 0;
  // True when a file's name bounds every line before it (the event log names a file by its
  // first line's sequence number, and readers find a line by names alone): then the next
  // file is opened only once every write to the current one has completed (a reader that
  // sees a later file knows this one is whole), and lines appended while it opens wait for
  // it. False (WallClockFiles): lines go on to the current file while the next one opens.
  virtual bool holds_lines_while_opening() const { return false; }
  // The file of the last next_name() is open: the next lines go there.
  virtual void file_opened() = 0;
  // An fdatasync of the live file succeeded after latency_ns (a retired file's is not told).
  virtual void synced(int64_t latency_ns) = 0;
};

// Files named by the wall-clock millisecond they were opened, 13 digits, ".jsonl";
// strictly increasing within a run, even for two files opened in one millisecond, so names
// sort in write order. A name a previous run used (a clock stepped back) is skipped.
class WallClockFiles final : public LineLogFiles {
 public:
  explicit WallClockFiles(const Clock& clock) : clock_(clock) {}

  static std::string file_name(int64_t wall_ms);

  std::string next_name(bool lines_held) override;
  bool reuse_empty_file() const override { return false; }
  void name_taken() override {}  // next_name() moves on by itself
  void file_opened() override {}
  void synced(int64_t) override {}

 private:
  const Clock& clock_;
  int64_t last_name_ms_ = 0;
};

}  // namespace runtime
