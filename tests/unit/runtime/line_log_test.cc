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
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "runtime/line_buffers.h"
#include "runtime/timer_wheel.h"

namespace runtime {
namespace {

// Every operation waits in `ops` until complete() delivers the oldest one.
class ScriptedFileIo final : public FileIo {
 public:
  struct Op {
    char kind;  // 'w'rite, 's'ync, 'o'pen, 'c'lose
    size_t length;
    FileCompletion* done;
    uint8_t tag;
  };
  std::deque<Op> ops;
  LoopHook* hook = nullptr;

  void write(int, const char*, size_t length, uint64_t, FileCompletion& done, uint8_t tag) override {
    ops.push_back({'w', length, &done, tag});
  }
  void sync_data(int, FileCompletion& done, uint8_t tag) override { ops.push_back({'s', 0, &done, tag}); }
  void open(const char*, int, unsigned, FileCompletion& done, uint8_t tag) override {
    ops.push_back({'o', 0, &done, tag});
  }
  void close(int, FileCompletion& done, uint8_t tag) override { ops.push_back({'c', 0, &done, tag}); }
  void rename(const char*, const char*, FileCompletion&, uint8_t) override {}
  void unlink(const char*, FileCompletion&, uint8_t) override {}
  void add_loop_hook(LoopHook& h) override { hook = &h; }
  void remove_loop_hook(LoopHook&) override { hook = nullptr; }

  void turn() { hook->before_wait(); }  // one loop iteration
  char next() const { return ops.empty() ? '-' : ops.front().kind; }
  void complete(int result) {
    const Op op = ops.front();
    ops.pop_front();
    op.done->on_file_complete(op.tag, result);
  }
  // The oldest operation, a write, lands whole.
  void complete_write() { complete(static_cast<int>(ops.front().length)); }
};

// Names files "<n>.log", reuses empty ones when told to, and records what it hears.
class RecordingFiles final : public LineLogFiles {
 public:
  bool reuse = false;
  int next = 1;
  std::vector<std::string> opened;
  std::vector<int64_t> syncs_ns;
  std::string naming;

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

TEST(LineBuffersDeathTest, ABatchReplacedBeforeItWasWrittenStopsTheProcess) {
  LineBuffers buffers(64);
  buffers.append([](std::string& out) { out += "one\n"; });
  buffers.take_pending();
  buffers.append([](std::string& out) { out += "two\n"; });
  EXPECT_DEATH(buffers.take_pending(), "line log: a batch replaced before it was written");
}

TEST(LineBuffers, HeldBytesAndLinesFollowAppendsAndWrites) {
  LineBuffers buffers(64);
  buffers.append([](std::string& out) { out += "one\n"; });
  buffers.append([](std::string& out) { out += "two\n"; });
  buffers.take_pending();
  buffers.append([](std::string& out) { out += "three\n"; });
  EXPECT_EQ(buffers.held_bytes(), 14u);
  EXPECT_EQ(buffers.written(5), 0u) << "a short write completes no line";
  EXPECT_EQ(buffers.held_bytes(), 9u);
  EXPECT_EQ(buffers.written(3), 2u);
  EXPECT_EQ(buffers.discard(), 1u);
  EXPECT_EQ(buffers.held_bytes(), 0u);
}

}  // namespace
}  // namespace runtime
