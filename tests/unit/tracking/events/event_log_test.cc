// The event log (docs/events.md) on the runtime line writer and a real ring: lines written
// in batches and read back, rotation, torn lines, a disk that refuses, sequence numbers
// across restarts.
#include "tracking/events/event_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tests/unit/tracking/events/reactor_loop.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/events/event_log_reader.h"
#include "tracking/events/log_files.h"

namespace tracking::events {
namespace {

using testing::ReactorLoop;
using testing::TemporaryDirectory;

EventRecord impression(uint64_t ad, std::string_view user) {
  EventRecord r;
  r.time_ms = 1'790'000'000'000 + static_cast<int64_t>(ad);
  r.kind = "impression";
  r.ad = ad;
  r.creative = ad + 1000;
  r.placement = 7;
  r.request_id[0] = 0xab;
  r.user = user;
  r.core = 0;
  r.tracking = true;
  r.issued_s = 1'790'000'000;
  r.expires_s = 1'790'003'600;
  r.token_id = 0x0123456789abcdefull ^ ad;
  return r;
}

// A FileIo that refuses writes while `refuse` is set (ENOSPC), and otherwise passes through.
class RefusingFileIo final : public runtime::FileIo {
 public:
  explicit RefusingFileIo(runtime::FileIo& real) : real_(real) {}
  bool refuse = false;
  void write(int fd, const char* data, size_t length, uint64_t offset, runtime::FileCompletion& done,
             uint8_t tag) override {
    if (refuse) {
      done.on_file_complete(tag, -ENOSPC);
      return;
    }
    real_.write(fd, data, length, offset, done, tag);
  }
  void sync_data(int fd, runtime::FileCompletion& done, uint8_t tag) override { real_.sync_data(fd, done, tag); }
  void open(const char* path, int flags, unsigned mode, runtime::FileCompletion& done, uint8_t tag) override {
    real_.open(path, flags, mode, done, tag);
  }
  void close(int fd, runtime::FileCompletion& done, uint8_t tag) override { real_.close(fd, done, tag); }
  void rename(const char* from, const char* to, runtime::FileCompletion& done, uint8_t tag) override {
    real_.rename(from, to, done, tag);
  }
  void unlink(const char* path, runtime::FileCompletion& done, uint8_t tag) override { real_.unlink(path, done, tag); }
  void add_loop_hook(runtime::LoopHook& hook) override { real_.add_loop_hook(hook); }
  void remove_loop_hook(runtime::LoopHook& hook) override { real_.remove_loop_hook(hook); }

 private:
  runtime::FileIo& real_;
};

class EventLogTest : public ::testing::Test {
 protected:
  EventLogSettings settings() {
    EventLogSettings s;
    s.directory = directory_.path() + "/events/core-0";
    s.flush_interval_ms = 20;
    return s;
  }
  void close_and_wait(EventLog& log) {
    bool closed = false;
    log.close([&] { closed = true; });
    ASSERT_TRUE(loop_.run_until([&] { return closed; }));
  }
  // The events read, their strings copied into strings_: the reader's views die with the
  // next line (ASan caught kind read after the parser's buffer had grown).
  std::vector<ParsedEvent> read_back(const std::string& directory, ReadStats* stats = nullptr) {
    std::vector<ParsedEvent> events;
    const ReadStats s = read_core_log(directory, 0, [&](const ParsedEvent& e) {
      ParsedEvent& kept = events.emplace_back(e);
      for (std::string_view* view : {&kept.line, &kept.kind, &kept.name, &kept.request}) {
        *view = strings_.emplace_back(*view);
      }
      if (kept.user) kept.user = strings_.emplace_back(*kept.user);
    });
    if (stats != nullptr) *stats = s;
    return events;
  }

  TemporaryDirectory directory_;
  ReactorLoop loop_;
  std::deque<std::string> strings_;  // a deque: adding one moves none of the others
};

TEST_F(EventLogTest, LinesAreWrittenAndReadBackInOrder) {
  ASSERT_TRUE(loop_.ready());
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t i = 0; i < 1000; ++i) EXPECT_EQ(log.append(impression(i, "u\"1\\")), i);
  close_and_wait(log);
  const std::vector<ParsedEvent> events = read_back(settings().directory);
  ASSERT_EQ(events.size(), 1000u);
  for (uint64_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(events[i].seq, i);
    EXPECT_EQ(events[i].ad, i);
    EXPECT_EQ(events[i].kind, "impression");
    EXPECT_TRUE(events[i].tracking);
    EXPECT_EQ(events[i].token_id, 0x0123456789abcdefull ^ i);
  }
  EXPECT_EQ(log.counters().events_written.get(), 1000u);
  EXPECT_GE(log.counters().syncs.get(), 1u);
}

TEST_F(EventLogTest, EverySyncIsCountedInOneDurationBucket) {
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t round = 0; round < 3; ++round) {
    log.append(impression(round, "u"));
    const uint64_t syncs = log.counters().syncs.get();
    ASSERT_TRUE(loop_.run_until([&] { return log.counters().syncs.get() > syncs; }));
  }
  close_and_wait(log);
  const EventLogCounters& counters = log.counters();
  uint64_t counted = 0;
  for (const runtime::CoreCounter& bucket : counters.sync_buckets) counted += bucket.get();
  EXPECT_GE(counters.syncs.get(), 3u);
  EXPECT_EQ(counted, counters.syncs.get());
  EXPECT_GE(counters.sync_ns_sum.get() / 1000, counters.sync_latency_us_max.get());
}

TEST_F(EventLogTest, LinesOfOneLoopIterationGoOutInOneWrite) {
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t i = 0; i < 500; ++i) log.append(impression(i, "u"));
  ASSERT_TRUE(loop_.run_until([&] { return log.counters().events_written.get() == 500; }));
  EXPECT_EQ(log.counters().writes.get(), 1u);
  close_and_wait(log);
}

TEST_F(EventLogTest, FilesRotateAtTheSizeBoundAndReadBackWhole) {
  EventLogSettings s = settings();
  s.file_bytes = 4096;
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), s, 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t round = 0; round < 20; ++round) {
    for (uint64_t i = 0; i < 20; ++i) log.append(impression(round * 20 + i, "u"));
    loop_.run_for(5);
  }
  close_and_wait(log);
  const std::vector<LogFile> files = list_log_files(s.directory);
  EXPECT_GT(files.size(), 5u);
  for (size_t i = 0; i + 1 < files.size(); ++i) EXPECT_GE(std::filesystem::file_size(files[i].path), 4096u);
  const std::vector<ParsedEvent> events = read_back(s.directory);
  ASSERT_EQ(events.size(), 400u);
  for (uint64_t i = 0; i < 400; ++i) EXPECT_EQ(events[i].seq, i);
}

// A FileIo whose fdatasyncs are slow (held until release()), and that checks every
// descriptor the log closes was fdatasync'd first.
class SlowSyncFileIo final : public runtime::FileIo {
 public:
  explicit SlowSyncFileIo(runtime::FileIo& real) : real_(real) {}
  int closed_unsynced = 0;
  int closed = 0;
  bool hold = true;
  void release() {
    for (const Held& h : held_) {
      synced_.insert(h.fd);
      real_.sync_data(h.fd, *h.done, h.tag);
    }
    held_.clear();
  }
  void write(int fd, const char* data, size_t length, uint64_t offset, runtime::FileCompletion& done,
             uint8_t tag) override {
    synced_.erase(fd);
    real_.write(fd, data, length, offset, done, tag);
  }
  void sync_data(int fd, runtime::FileCompletion& done, uint8_t tag) override {
    held_.push_back({fd, &done, tag});
    if (!hold) release();
  }
  void open(const char* path, int flags, unsigned mode, runtime::FileCompletion& done, uint8_t tag) override {
    real_.open(path, flags, mode, done, tag);
  }
  void close(int fd, runtime::FileCompletion& done, uint8_t tag) override {
    ++closed;
    if (synced_.erase(fd) == 0) ++closed_unsynced;
    real_.close(fd, done, tag);
  }
  void rename(const char* from, const char* to, runtime::FileCompletion& done, uint8_t tag) override {
    real_.rename(from, to, done, tag);
  }
  void unlink(const char* path, runtime::FileCompletion& done, uint8_t tag) override { real_.unlink(path, done, tag); }
  void add_loop_hook(runtime::LoopHook& hook) override { real_.add_loop_hook(hook); }
  void remove_loop_hook(runtime::LoopHook& hook) override { real_.remove_loop_hook(hook); }

 private:
  struct Held {
    int fd;
    runtime::FileCompletion* done;
    uint8_t tag;
  };
  runtime::FileIo& real_;
  std::set<int> synced_;
  std::vector<Held> held_;
};

// Rotations faster than a file's fdatasync: a file is never closed before its sync (the next
// rotation waits, the live file growing a little past the bound meanwhile).
TEST_F(EventLogTest, EveryRotatedFileIsSyncedBeforeItIsClosed) {
  SlowSyncFileIo io(loop_.reactor());
  EventLogSettings s = settings();
  s.file_bytes = 300;  // about one line
  EventLog log(io, loop_.reactor().timers(), runtime::SystemClock::instance(), s, 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t round = 0; round < 200; ++round) {
    log.append(impression(round, "u"));
    loop_.run_until([] { return true; }, 5);
    if (round % 10 == 9) io.release();
  }
  io.hold = false;
  io.release();
  close_and_wait(log);
  EXPECT_GT(io.closed, 10);
  EXPECT_EQ(io.closed_unsynced, 0);
  const std::vector<ParsedEvent> events = read_back(s.directory);
  ASSERT_EQ(events.size(), 200u);
  for (uint64_t i = 0; i < 200; ++i) EXPECT_EQ(events[i].seq, i);
}

TEST_F(EventLogTest, TornLastLineIsSkippedOnRead) {
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t i = 0; i < 10; ++i) log.append(impression(i, "u"));
  close_and_wait(log);
  const std::vector<LogFile> files = list_log_files(settings().directory);
  ASSERT_EQ(files.size(), 1u);
  std::ofstream(files[0].path, std::ios::app) << R"({"seq":10,"time_ms":1,"kind":"impr)";
  ReadStats stats;
  EXPECT_EQ(read_back(settings().directory, &stats).size(), 10u);
  EXPECT_EQ(stats.torn_lines, 1u);
}

// The writer's writes may land in any order (runtime/line_log.h): after a crash, or a close
// on a disk that refused to the end, a batch that never landed is zeros between lines.
TEST_F(EventLogTest, AHoleOfAWriteThatNeverLandedLosesOnlyItsOwnLinesOnRead) {
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t i = 0; i < 10; ++i) log.append(impression(i, "u"));
  close_and_wait(log);
  const std::vector<LogFile> files = list_log_files(settings().directory);
  ASSERT_EQ(files.size(), 1u);
  std::string bytes;
  {
    std::ifstream in(files[0].path);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // Lines 3 and 4 (seq 3, 4) never landed; line 5 follows at once.
  size_t from = 0;
  for (int i = 0; i < 3; ++i) from = bytes.find('\n', from) + 1;
  size_t to = from;
  for (int i = 0; i < 2; ++i) to = bytes.find('\n', to) + 1;
  bytes.replace(from, to - from, std::string(to - from, '\0'));
  std::ofstream(files[0].path, std::ios::trunc) << bytes;
  ReadStats stats;
  EXPECT_EQ(read_back(settings().directory, &stats).size(), 8u) << "the line after the hole is read";
  EXPECT_EQ(stats.torn_lines, 1u);
}

TEST_F(EventLogTest, RefusingDiskKeepsEventsTurnsUnhealthyAndRecovers) {
  RefusingFileIo io(loop_.reactor());
  EventLog log(io, loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok());
  io.refuse = true;
  for (uint64_t i = 0; i < 100; ++i) log.append(impression(i, "u"));
  ASSERT_TRUE(loop_.run_until([&] { return !log.healthy(); }));
  loop_.run_for(50);  // retries, still refused
  EXPECT_FALSE(log.healthy());
  EXPECT_GE(log.counters().write_errors.get(), 2u);
  EXPECT_EQ(log.counters().events_written.get(), 0u);
  EXPECT_EQ(log.counters().events_dropped.get(), 0u);  // held, not lost
  io.refuse = false;
  ASSERT_TRUE(loop_.run_until([&] { return log.healthy() && log.counters().events_written.get() == 100; }));
  close_and_wait(log);
  EXPECT_EQ(read_back(settings().directory).size(), 100u);
}

// A state directory the disk refuses at start (read-only, full): the log starts all the
// same, unhealthy, holds its lines and opens its first file once the disk allows it. Here a
// regular file stands where the events directory should be, which refuses like a read-only
// disk without needing root.
TEST_F(EventLogTest, DiskThatRefusesTheFirstFileStartsUnhealthyAndOpensItLater) {
  const std::string blocker = directory_.path() + "/events";
  std::ofstream(blocker) << "not a directory";
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok()) << "a refusing disk does not stop the start";
  EXPECT_FALSE(log.healthy());
  EXPECT_NE(log.start_error().find("cannot create event log file"), std::string::npos) << log.start_error();
  for (uint64_t i = 0; i < 50; ++i) EXPECT_EQ(log.append(impression(i, "u")), i);
  loop_.run_for(60);  // three retries, all refused
  EXPECT_FALSE(log.healthy());
  EXPECT_GE(log.counters().write_errors.get(), 2u);
  EXPECT_EQ(log.counters().events_dropped.get(), 0u);  // held, not lost
  std::filesystem::remove(blocker);
  ASSERT_TRUE(loop_.run_until([&] { return log.healthy() && log.counters().events_written.get() == 50; }));
  close_and_wait(log);
  const std::vector<ParsedEvent> events = read_back(settings().directory);
  ASSERT_EQ(events.size(), 50u);
  EXPECT_EQ(events.front().seq, 0u);
  EXPECT_EQ(list_log_files(settings().directory).front().first_seq, 0u) << "the file is named by its first line";
}

TEST_F(EventLogTest, IdleLogWhoseDiskReturnsIsHealthyWithoutALine) {
  const std::string blocker = directory_.path() + "/events";
  std::ofstream(blocker) << "not a directory";
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 7);
  ASSERT_TRUE(log.start().ok());
  EXPECT_FALSE(log.healthy());
  std::filesystem::remove(blocker);
  // A node with no traffic must turn ready again: a balancer sends none to an unready one.
  ASSERT_TRUE(loop_.run_until([&] { return log.healthy(); }));
  EXPECT_EQ(log.append(impression(1, "u")), 7u);
  close_and_wait(log);
  EXPECT_EQ(read_back(settings().directory).size(), 1u);
}

TEST_F(EventLogTest, CloseOnADiskThatNeverAllowedAFileCountsTheHeldLinesAsDropped) {
  const std::string blocker = directory_.path() + "/events";
  std::ofstream(blocker) << "not a directory";
  EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
  ASSERT_TRUE(log.start().ok());
  for (uint64_t i = 0; i < 10; ++i) log.append(impression(i, "u"));
  close_and_wait(log);
  EXPECT_EQ(log.counters().events_dropped.get(), 10u);
  EXPECT_EQ(log.counters().events_written.get(), 0u);
}

TEST_F(EventLogTest, PastThePendingBoundLinesAreDroppedAndCounted) {
  RefusingFileIo io(loop_.reactor());
  EventLogSettings s = settings();
  s.max_pending_bytes = 2000;
  EventLog log(io, loop_.reactor().timers(), runtime::SystemClock::instance(), s, 0);
  ASSERT_TRUE(log.start().ok());
  io.refuse = true;
  for (uint64_t i = 0; i < 100; ++i) log.append(impression(i, "u"));
  loop_.run_for(30);
  const uint64_t dropped = log.counters().events_dropped.get();
  EXPECT_GT(dropped, 0u);
  io.refuse = false;
  close_and_wait(log);
  EXPECT_EQ(read_back(s.directory).size() + dropped, 100u);
}

TEST_F(EventLogTest, SequenceContinuesWhereTheLastRunEnded) {
  {
    EventLog log(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 0);
    ASSERT_TRUE(log.start().ok());
    for (uint64_t i = 0; i < 5; ++i) log.append(impression(i, "u"));
    close_and_wait(log);
  }
  EventLog again(loop_.reactor(), loop_.reactor().timers(), runtime::SystemClock::instance(), settings(), 5);
  ASSERT_TRUE(again.start().ok());
  EXPECT_EQ(again.append(impression(9, "u")), 5u);
  close_and_wait(again);
  EXPECT_EQ(list_log_files(settings().directory).size(), 2u);  // a new file per run
  const std::vector<ParsedEvent> events = read_back(settings().directory);
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events.back().seq, 5u);
}

TEST(EventLine, StringsAreEscapedAndReadBack) {
  EventRecord r = impression(1, "quote\" backslash\\ newline\n tab\t é");
  std::string line;
  append_event_line(r, 42, line);
  ASSERT_EQ(line.back(), '\n');
  EventLineParser parser;
  ParsedEvent e;
  ASSERT_TRUE(parser.parse(line, e)) << line;
  EXPECT_EQ(e.seq, 42u);
  ASSERT_TRUE(e.user.has_value());
  EXPECT_EQ(*e.user, "quote\" backslash\\ newline\n tab\t é");
}

TEST(EventLine, AVerificationThatDidNotRunNamesItsVendorAndReason) {
  EventRecord r = impression(1, "u");
  r.kind = "verification_not_executed";
  r.name = "iabtechlab.com-omid";
  r.reason = 2;
  std::string line;
  append_event_line(r, 7, line);
  EXPECT_NE(line.find(R"("event":"iabtechlab.com-omid")"), std::string::npos) << line;
  EXPECT_NE(line.find(R"("reason":2)"), std::string::npos) << line;
  EventLineParser parser;
  ParsedEvent e;
  ASSERT_TRUE(parser.parse(line, e)) << line;
  EXPECT_EQ(e.kind, "verification_not_executed");
  EXPECT_EQ(e.name, "iabtechlab.com-omid");
  EXPECT_EQ(e.reason, 2);
  r.reason.reset();
  line.clear();
  append_event_line(r, 8, line);
  EXPECT_EQ(line.find("reason"), std::string::npos) << line;
}

TEST(EventLine, GarbageIsNotAnEvent) {
  EventLineParser parser;
  ParsedEvent e;
  for (const char* line : {"", "{}", "not json", "{\"seq\":1}", "[1,2]", "{\"seq\":1,\"time_ms\":2,\"kind\":\"x\""}) {
    EXPECT_FALSE(parser.parse(line, e)) << line;
  }
}

}  // namespace
}  // namespace tracking::events
