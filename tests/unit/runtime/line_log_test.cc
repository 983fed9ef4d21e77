// The line writer (runtime/line_log.h) against a scripted FileIo, each completion delivered
// when the test says: what a log's LineLogFiles hears and decides, the close's rule for late
// lines, and the release checks that stop the process before the log is corrupted silently.
// The writer on a real ring is tested through its logs (unit.events.EventLogTest.*,
// unit.service.AccessLogWriter.*).
#include "runtime/line_log.h"

#include <stdlib.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "runtime/line_buffers.h"
#include "runtime/timer_wheel.h"
#include "tests/unit/runtime/scripted_file_io.h"

namespace runtime {
namespace {

// Names files "<n>.log", reuses empty ones when told to, and records what it hears.
class RecordingFiles final : public LineLogFiles {
 public:
  bool reuse = false;
  int next = 1;
  std::vector<std::string> opened;
  std::vector<int64_t> syncs_ns;
  std::string naming;
  bool holds = false;

  bool holds_lines_while_opening() const override { return holds; }
  std::string next_name(bool) override { return naming = std::to_string(next) + ".log"; }
  bool reuse_empty_file() const override { return reuse; }
  void name_taken() override { ++next; }
  void file_opened() override { opened.push_back(naming); }
  void synced(int64_t latency_ns) override { syncs_ns.push_back(latency_ns); }
};

class LineLogTest : public ::testing::Test {
 protected:
  LineLogTest() {
    char pattern[] = "/tmp/decisiond-line-log-test-XXXXXX";
    const char* made = mkdtemp(pattern);
    EXPECT_NE(made, nullptr);
    directory_ = made ? made : "";
  }
  ~LineLogTest() override {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
  LineLogSettings settings() const {
    LineLogSettings s;
    s.directory = directory_;
    s.reserve_bytes = 4096;
    return s;
  }
  static auto line(std::string text) {
    return [text = std::move(text)](std::string& out) { out += text + "\n"; };
  }

  std::string directory_;
  ManualClock clock_;
  TimerWheel timers_{0, 5};
  ScriptedFileIo io_;
  LineLogCounters counters_;
};

TEST_F(LineLogTest, TheFilesNameEachFileAndHearItOpenAndSync) {
  RecordingFiles files;
  LineLog log(io_, timers_, clock_, settings(), counters_.refs(), files);
  ASSERT_TRUE(log.start().ok());
  EXPECT_EQ(files.opened, std::vector<std::string>{"1.log"});
  EXPECT_TRUE(std::filesystem::exists(directory_ + "/1.log"));
  log.append(line("a"));
  io_.turn();
  io_.complete_write();
  bool closed = false;
  log.close([&] { closed = true; });
  ASSERT_EQ(io_.next(), 's');
  clock_.advance(std::chrono::microseconds(300));
  io_.complete(0);
  EXPECT_TRUE(closed);
  ASSERT_EQ(files.syncs_ns.size(), 1u);
  EXPECT_EQ(files.syncs_ns[0], 300'000);
}

TEST_F(LineLogTest, AtStartANameInUseIsPassedOverUnlessEmptyAndTheFilesReuseIt) {
  std::ofstream(directory_ + "/1.log") << "a line a crash may have cut";
  std::ofstream(directory_ + "/2.log");
  RecordingFiles passing;
  LineLog passed(io_, timers_, clock_, settings(), counters_.refs(), passing);
  ASSERT_TRUE(passed.start().ok());
  EXPECT_EQ(passing.opened, std::vector<std::string>{"3.log"});
  RecordingFiles reusing;
  reusing.reuse = true;
  LineLog reused(io_, timers_, clock_, settings(), counters_.refs(), reusing);
  ASSERT_TRUE(reused.start().ok());
  EXPECT_EQ(reusing.opened, std::vector<std::string>{"2.log"});
}

TEST_F(LineLogTest, ALineAppendedWhileTheCloseRunsIsWrittenByItAndOneAfterItIsDropped) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("before"));
  bool closed = false;
  log.close([&] { closed = true; });
  EXPECT_TRUE(log.append(line("during")));
  while (!io_.ops.empty()) io_.next() == 'w' ? io_.complete_write() : io_.complete(0);
  EXPECT_TRUE(closed);
  EXPECT_EQ(counters_.lines_written.get(), 2u);
  EXPECT_FALSE(log.append(line("after")));
  EXPECT_EQ(counters_.lines_dropped.get(), 1u);
}

// The durability rule (docs/events.md): a reply and the write of the lines it acknowledges
// leave in the same io_uring_enter, so a turn's lines never wait for an earlier write.
TEST_F(LineLogTest, LinesAppendedWhileAWriteIsInFlightAreHandedToASecondWriteInTheSameTurn) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("one"));
  io_.turn();
  ASSERT_EQ(io_.count('w'), 1u);
  log.append(line("two"));
  io_.turn();
  ASSERT_EQ(io_.count('w'), 2u) << "the second turn's line waited for the first write";
  EXPECT_EQ(io_.ops[1].offset, 4u);
  EXPECT_EQ(io_.ops[1].data, "two\n");
  EXPECT_EQ(log.pending_lines(), 0u);
  const int fd = io_.ops[0].fd;
  io_.complete_all();
  EXPECT_EQ(io_.files[fd], "one\ntwo\n");
  EXPECT_EQ(counters_.lines_written.get(), 2u);
}

TEST_F(LineLogTest, CompletionsOutOfOrderAreAccountedEachToItsBatch) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("a"));
  io_.turn();
  log.append(line("bb"));
  log.append(line("bb"));
  io_.turn();
  log.append(line("ccc"));
  io_.turn();
  ASSERT_EQ(io_.count('w'), 3u);
  const int fd = io_.ops[0].fd;
  io_.complete_write_at(2);  // the last batch lands first
  EXPECT_EQ(counters_.lines_written.get(), 1u);
  EXPECT_EQ(counters_.pending_bytes.get(), 8u) << "a\n and two bb\n still held";
  io_.complete_write_at(0);
  EXPECT_EQ(counters_.lines_written.get(), 2u);
  EXPECT_EQ(counters_.pending_bytes.get(), 6u);
  io_.complete_write_at(0);
  EXPECT_EQ(counters_.lines_written.get(), 4u);
  EXPECT_EQ(counters_.pending_bytes.get(), 0u);
  EXPECT_EQ(counters_.bytes_written.get(), 12u);
  EXPECT_EQ(io_.files[fd], "a\nbb\nbb\nccc\n");
  EXPECT_TRUE(log.healthy());
}

TEST_F(LineLogTest, AShortWriteOfAnEarlierBatchWhileALaterOneLandedLeavesNoHole) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("aaaa"));
  io_.turn();
  log.append(line("bbbb"));
  io_.turn();
  ASSERT_EQ(io_.count('w'), 2u);
  const int fd = io_.ops[0].fd;
  io_.complete_write_at(1);
  io_.complete_at(0, 2);  // the earlier batch: two of its five bytes
  ASSERT_EQ(io_.count('w'), 1u) << "the rest is written at once";
  EXPECT_EQ(io_.ops[0].offset, 2u);
  EXPECT_EQ(io_.ops[0].data, "aa\n");
  EXPECT_EQ(counters_.lines_written.get(), 1u);
  io_.complete_write();
  EXPECT_EQ(io_.files[fd], "aaaa\nbbbb\n");
  EXPECT_EQ(counters_.lines_written.get(), 2u);
  EXPECT_EQ(counters_.writes.get(), 3u);
}

TEST_F(LineLogTest, ARefusedBatchAmongSeveralKeepsItsOffsetAndIsRetriedEveryFlushInterval) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  for (const char* text : {"aaa", "bbb", "ccc"}) {
    log.append(line(text));
    io_.turn();
  }
  ASSERT_EQ(io_.count('w'), 3u);
  const int fd = io_.ops[0].fd;
  io_.complete_at(0, -ENOSPC);  // aaa refused
  io_.complete_write();         // bbb lands
  io_.complete_at(0, -ENOSPC);  // ccc refused
  EXPECT_FALSE(log.healthy());
  EXPECT_EQ(counters_.write_errors.get(), 2u);
  log.append(line("ddd"));
  io_.turn();
  EXPECT_EQ(io_.count('w'), 0u) << "while the disk refuses, lines wait for the retry";
  timers_.advance(1000);
  ASSERT_EQ(io_.next(), 's') << "the flush interval's fdatasync of what landed";
  io_.complete(0);
  io_.turn();
  ASSERT_EQ(io_.count('w'), 2u) << "each refused batch again, and nothing new";
  EXPECT_EQ(io_.ops[0].offset, 0u);
  EXPECT_EQ(io_.ops[0].data, "aaa\n");
  EXPECT_EQ(io_.ops[1].offset, 8u);
  EXPECT_EQ(io_.ops[1].data, "ccc\n");
  io_.complete_write();
  io_.complete_write();
  EXPECT_TRUE(log.healthy());
  io_.turn();
  ASSERT_EQ(io_.count('w'), 1u);
  EXPECT_EQ(io_.ops[0].offset, 12u);
  io_.complete_write();
  EXPECT_EQ(io_.files[fd], "aaa\nbbb\nccc\nddd\n");
  EXPECT_EQ(counters_.lines_written.get(), 4u);
  EXPECT_EQ(counters_.lines_dropped.get(), 0u);
}

TEST_F(LineLogTest, LinesAppendedDuringARotationsOpenGoToTheCurrentFileInThatTurn) {
  LineLogSettings s = settings();
  s.file_bytes = 4;
  RecordingFiles files;
  LineLog log(io_, timers_, clock_, s, counters_.refs(), files);
  ASSERT_TRUE(log.start().ok());
  log.append(line("full"));
  io_.turn();
  const int first = io_.ops[0].fd;
  io_.complete_write();
  log.append(line("b"));
  io_.turn();
  ASSERT_EQ(io_.count('o'), 1u) << "the file is full: the next one opens";
  ASSERT_EQ(io_.count('w'), 1u) << "the turn's line did not wait for the open";
  EXPECT_EQ(io_.ops[1].fd, first);
  EXPECT_EQ(io_.ops[1].offset, 5u);
  log.append(line("c"));
  io_.turn();
  ASSERT_EQ(io_.count('w'), 2u);
  EXPECT_EQ(io_.ops[2].fd, first);
  io_.complete(100);  // the open: the next file is descriptor 100
  EXPECT_EQ(files.opened.size(), 2u);
  EXPECT_EQ(io_.count('s'), 0u) << "a file is synced and closed only once its writes have landed";
  log.append(line("d"));
  io_.turn();
  ASSERT_EQ(io_.ops.back().kind, 'w');
  EXPECT_EQ(io_.ops.back().fd, 100);
  EXPECT_EQ(io_.ops.back().offset, 0u);
  io_.complete_write();
  EXPECT_EQ(io_.count('s'), 0u);
  io_.complete_write();
  ASSERT_EQ(io_.ops.back().kind, 's') << "the retiring file's last write landed: its fdatasync";
  EXPECT_EQ(io_.ops.back().fd, first);
  io_.complete_all();
  EXPECT_EQ(io_.files[first], "full\nb\nc\n");
  EXPECT_EQ(io_.files[100], "d\n");
}

TEST_F(LineLogTest, AFileNamedByItsFirstLineOpensBetweenWritesAndItsLinesWaitForIt) {
  LineLogSettings s = settings();
  s.file_bytes = 4;
  RecordingFiles files;
  files.holds = true;
  LineLog log(io_, timers_, clock_, s, counters_.refs(), files);
  ASSERT_TRUE(log.start().ok());
  log.append(line("full"));
  io_.turn();
  log.append(line("b"));
  io_.turn();
  EXPECT_EQ(io_.count('o'), 0u) << "not while a write to the full file is in flight";
  io_.complete_write();
  io_.turn();
  ASSERT_EQ(io_.count('o'), 1u);
  EXPECT_EQ(io_.count('w'), 0u);
  io_.complete(100);
  ASSERT_EQ(io_.count('w'), 1u);
  EXPECT_EQ(io_.ops.back().fd, 100);
  EXPECT_EQ(io_.ops.back().data, "b\n");
}

TEST_F(LineLogTest, LinesInKernelAdvancesOnlyOverAContiguousPrefix) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("1"));
  io_.turn();
  log.append(line("2"));
  log.append(line("3"));
  io_.turn();
  log.append(line("4"));
  io_.turn();
  log.append(line("5"));
  EXPECT_EQ(log.lines_appended(), 5u);
  EXPECT_EQ(log.lines_in_kernel(), 0u);
  io_.complete_write_at(2);
  EXPECT_EQ(log.lines_in_kernel(), 0u) << "line 4 landed, lines 1 to 3 have not";
  io_.complete_at(0, -EIO);
  io_.complete_write_at(0);
  EXPECT_EQ(log.lines_in_kernel(), 0u) << "line 1 was refused";
  io_.turn();  // a later write landed: the disk takes writes, the refused batch goes again
  ASSERT_EQ(io_.count('w'), 2u);
  io_.complete_write();
  EXPECT_EQ(log.lines_in_kernel(), 4u);
  io_.complete_write();
  EXPECT_EQ(log.lines_in_kernel(), 5u);
}

TEST_F(LineLogTest, AtTheBoundOfBatchesInFlightLinesWaitAndTheTurnIsCounted) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  for (size_t i = 0; i < LineBuffers::kMaxBatchesInFlight; ++i) {
    log.append(line("x"));
    io_.turn();
  }
  ASSERT_EQ(io_.count('w'), LineBuffers::kMaxBatchesInFlight);
  log.append(line("waits"));
  io_.turn();
  EXPECT_EQ(io_.count('w'), LineBuffers::kMaxBatchesInFlight);
  EXPECT_EQ(counters_.writes_waited.get(), 1u);
  EXPECT_EQ(log.pending_lines(), 1u);
  io_.complete_write_at(1);
  io_.turn();
  EXPECT_EQ(counters_.writes_waited.get(), 2u) << "a batch landed behind an unfinished one is not free yet";
  io_.complete_write();
  io_.turn();
  EXPECT_EQ(log.pending_lines(), 0u);
  EXPECT_EQ(io_.ops.back().offset, 2u * LineBuffers::kMaxBatchesInFlight);
  io_.complete_all();
  EXPECT_EQ(log.lines_in_kernel(), LineBuffers::kMaxBatchesInFlight + 1);
}

TEST_F(LineLogTest, TheCloseWritesAndSyncsEveryBatchWhateverIsInFlight) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("a"));
  io_.turn();
  log.append(line("b"));
  io_.turn();
  log.append(line("c"));
  bool closed = false;
  log.close([&] { closed = true; });
  EXPECT_EQ(io_.count('w'), 3u);
  io_.complete_write_at(2);
  io_.complete_write_at(1);
  EXPECT_FALSE(closed);
  EXPECT_EQ(io_.count('s'), 0u) << "no sync before every write has landed";
  io_.complete_write();
  ASSERT_EQ(io_.next(), 's');
  io_.complete(0);
  EXPECT_TRUE(closed);
  EXPECT_EQ(log.lines_in_kernel(), 3u);
}

using LineLogDeathTest = LineLogTest;

TEST_F(LineLogDeathTest, ALineWithoutItsLineFeedStopsTheProcess) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  EXPECT_DEATH(log.append([](std::string& out) { out += "no line feed"; }),
               "line log: a line must end with its line feed");
}

TEST_F(LineLogDeathTest, AWriteCompletionForMoreBytesThanSubmittedStopsTheProcess) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("12345"));
  io_.turn();
  ASSERT_EQ(io_.next(), 'w');
  EXPECT_DEATH(io_.complete(7), "line log: a write completed more bytes than were submitted");
}

TEST_F(LineLogDeathTest, AWriteCompletionWithoutAWriteInFlightStopsTheProcess) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("12345"));
  io_.turn();
  const ScriptedFileIo::Op write = io_.ops.front();
  io_.complete_write();
  EXPECT_DEATH(write.done->on_file_complete(write.tag, 6), "line log: a write completion without a write in flight");
}

TEST_F(LineLogDeathTest, ClosingTwiceStopsTheProcess) {
  LineLog log(io_, timers_, clock_, settings(), counters_.refs());
  ASSERT_TRUE(log.start().ok());
  log.append(line("held"));
  log.close([] {});
  EXPECT_DEATH(log.close([] {}), "line log: closed twice");
}

TEST(LineBuffersDeathTest, ABatchTakenWithEveryBufferInFlightStopsTheProcess) {
  LineBuffers buffers(64);
  for (size_t i = 0; i < LineBuffers::kMaxBatchesInFlight; ++i) {
    buffers.append([](std::string& out) { out += "one\n"; });
    buffers.take_pending(3, 4 * i);
  }
  buffers.append([](std::string& out) { out += "two\n"; });
  EXPECT_DEATH(buffers.take_pending(3, 64), "line log: a batch taken with every buffer in flight");
}

TEST(LineBuffers, HeldBytesAndLinesFollowAppendsAndWrites) {
  LineBuffers buffers(64);
  buffers.append([](std::string& out) { out += "one\n"; });
  buffers.append([](std::string& out) { out += "two\n"; });
  const uint32_t first = buffers.take_pending(3, 0);
  buffers.append([](std::string& out) { out += "three\n"; });
  EXPECT_EQ(buffers.held_bytes(), 14u);
  EXPECT_EQ(buffers.written(first, 5), 0u) << "a short write completes no line";
  EXPECT_EQ(buffers.held_bytes(), 9u);
  buffers.submitted(first);
  EXPECT_EQ(buffers.written(first, 3), 2u);
  EXPECT_EQ(buffers.lines_in_kernel(), 2u);
  EXPECT_EQ(buffers.discard(), 1u);
  EXPECT_EQ(buffers.held_bytes(), 0u);
  EXPECT_EQ(buffers.lines_appended(), 3u);
}

}  // namespace
}  // namespace runtime
