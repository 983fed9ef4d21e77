// Work held until its lines are in the kernel: cross-core answers (runtime/answer_gate.h)
// and replies (runtime/after_lines_written.h). The core's log is a LineLog on a scripted
// FileIo, so each write completes when the test says; answers posted are read off a
// recording channel.
#include "runtime/answer_gate.h"

#include "runtime/after_lines_written.h"

#include <stdlib.h>

#include <cerrno>
#include <deque>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "runtime/timer_wheel.h"
#include "tests/unit/runtime/scripted_file_io.h"

namespace runtime {
namespace {

class RecordingChannel final : public CoreChannel {
 public:
  uint32_t core() const override { return 0; }
  uint32_t cores() const override { return 2; }
  bool post(uint32_t, const Message& message) override {
    posted.push_back(message.tag);
    return true;
  }
  void post_one_way(uint32_t, const Message& message) override { posted.push_back(message.tag); }
  std::deque<uint32_t> posted;  // the tags of the messages, in posting order
};

class AnswerGateTest : public ::testing::Test {
 protected:
  AnswerGateTest() {
    char pattern[] = "/tmp/decisiond-answer-gate-test-XXXXXX";
    const char* made = mkdtemp(pattern);
    EXPECT_NE(made, nullptr);
    directory_ = made ? made : "";
    LineLogSettings s;
    s.directory = directory_;
    s.reserve_bytes = 4096;
    log_ = std::make_unique<LineLog>(io_, timers_, clock_, s, counters_.refs());
    EXPECT_TRUE(log_->start().ok());
    gate_ = std::make_unique<AnswerGate>(channel_, *log_, io_);
  }
  ~AnswerGateTest() override {
    gate_.reset();
    log_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
  void append(const char* text) {
    log_->append([text](std::string& out) { out += std::string(text) + "\n"; });
  }
  static Message answer(uint32_t tag) {
    Message m;
    m.tag = tag;
    return m;
  }

  std::string directory_;
  ManualClock clock_;
  TimerWheel timers_{0, 5};
  ScriptedFileIo io_;
  LineLogCounters counters_;
  RecordingChannel channel_;
  std::unique_ptr<LineLog> log_;
  std::unique_ptr<AnswerGate> gate_;
};

TEST_F(AnswerGateTest, AnAnswerWaitsUntilTheLinesAppendedBeforeItAreWritten) {
  append("the ask's line");
  gate_->post(1, answer(7));
  EXPECT_TRUE(channel_.posted.empty()) << "its line is still in memory";
  io_.turn();  // the line handed to a write
  ASSERT_EQ(io_.next(), 'w');
  io_.turn();
  EXPECT_TRUE(channel_.posted.empty()) << "the write has not completed";
  io_.complete_write();
  io_.turn();
  ASSERT_EQ(channel_.posted.size(), 1u);
  EXPECT_EQ(channel_.posted[0], 7u);
}

TEST_F(AnswerGateTest, AnAnswerWithNothingWaitingToBeWrittenGoesAtOnce) {
  gate_->post(1, answer(1));
  ASSERT_EQ(channel_.posted.size(), 1u);
  append("a line");
  io_.turn();
  io_.complete_write();
  gate_->post(1, answer(2));
  EXPECT_EQ(channel_.posted.size(), 2u);
}

TEST_F(AnswerGateTest, AnswersLeaveInTheOrderTheyWereMade) {
  append("first");
  gate_->post(1, answer(1));
  gate_->post(1, answer(2));  // nothing new appended, but behind the first
  EXPECT_TRUE(channel_.posted.empty());
  io_.turn();
  io_.complete_write();
  io_.turn();
  EXPECT_EQ(channel_.posted, (std::deque<uint32_t>{1, 2}));
}

TEST_F(AnswerGateTest, WhileTheDiskRefusesAnswersGoAtOnce) {
  append("refused");
  gate_->post(1, answer(1));
  io_.turn();
  io_.complete(-ENOSPC);  // the log turns unhealthy and holds its lines
  io_.turn();
  EXPECT_EQ(channel_.posted.size(), 1u) << "requests are still served while the disk refuses";
  append("held");
  gate_->post(1, answer(2));
  EXPECT_EQ(channel_.posted.size(), 2u);
}

// The same log and loop, for the replies' waits.
using AfterLinesWrittenTest = AnswerGateTest;

class Waiter final : public LinesWrittenWaiter {
 public:
  void lines_written() override { ++told; }
  int told = 0;
};

TEST_F(AfterLinesWrittenTest, AReplyHeldForItsLinesIsToldOnlyOnceTheirWriteCompleted) {
  AfterLinesWritten waits(*log_, io_, 4);
  append("the reply's line");
  Waiter reply;
  waits.hold_until(waits.mark(), reply);
  EXPECT_FALSE(waits.passed(waits.mark()));
  io_.turn();  // the line handed to a write
  EXPECT_EQ(reply.told, 0) << "submitted, not written";
  io_.complete_write();
  io_.turn();
  EXPECT_EQ(reply.told, 1);
  EXPECT_EQ(waits.waiting(), 0u);
}

TEST_F(AfterLinesWrittenTest, AReplyWithNothingToWaitForIsToldFromTheNextTurnNeverInsideTheCall) {
  AfterLinesWritten waits(*log_, io_, 4);
  Waiter reply;
  waits.hold_until(waits.mark(), reply);
  EXPECT_EQ(reply.told, 0);
  io_.turn();
  EXPECT_EQ(reply.told, 1);
}

TEST_F(AfterLinesWrittenTest, RepliesWaitingForLinesAreToldInOrderAndALaterMarkWaitsForItsOwnWrite) {
  AfterLinesWritten waits(*log_, io_, 4);
  append("first");
  Waiter first;
  waits.hold_until(waits.mark(), first);
  io_.turn();  // the first line's write
  append("second");
  Waiter second;
  waits.hold_until(waits.mark(), second);
  io_.turn();  // the second line's write, while the first is in flight
  io_.complete_write();
  io_.turn();
  EXPECT_EQ(first.told, 1);
  EXPECT_EQ(second.told, 0) << "its line is still being written";
  io_.complete_write();
  io_.turn();
  EXPECT_EQ(second.told, 1);
}

}  // namespace
}  // namespace runtime
