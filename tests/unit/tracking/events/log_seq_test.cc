// The event log's sequence numbers (tracking/events/log_seq.h): which number names a file,
// and the release checks that stop the process before a number goes backwards.
#include "tracking/events/log_seq.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "tests/unit/tracking/events/reactor_loop.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/events/event_log.h"

namespace tracking::events {
namespace {

TEST(LogSeq, AFileIsNamedByTheFirstLineHeldElseByTheNextLine) {
  LogSeq seq(10);
  EXPECT_EQ(seq.name_next(false), 10u);
  seq.file_opened();
  EXPECT_EQ(seq.take(), 10u);
  seq.held_first(10);
  EXPECT_EQ(seq.take(), 11u);
  EXPECT_EQ(seq.name_next(true), 10u) << "lines 10 and 11 are held for the file being opened";
  EXPECT_EQ(seq.next(), 12u);
}

TEST(LogSeq, ANameTakenAtStartMovesTheSequenceOnByOne) {
  LogSeq seq(5);
  EXPECT_EQ(seq.name_next(false), 5u);
  seq.name_taken();
  EXPECT_EQ(seq.name_next(false), 6u);
  seq.file_opened();
  EXPECT_EQ(seq.take(), 6u);
}

TEST(LogSeqDeathTest, AFileNotAfterThePreviousOneStopsTheProcess) {
  LogSeq seq(5);
  seq.name_next(false);
  seq.file_opened();
  seq.name_next(false);  // no line taken since: the same number again
  EXPECT_DEATH(seq.file_opened(), "event log: a file must start after the previous one");
}

TEST(LogSeqDeathTest, ALineHeldForAFileNamedAfterItStopsTheProcess) {
  LogSeq seq(5);
  seq.name_next(false);
  seq.file_opened();
  EXPECT_DEATH(seq.held_first(4), "event log: a line held for a file named after it");
}

TEST(LogSeqDeathTest, ASequenceThatWrapsStopsTheProcess) {
  LogSeq seq(std::numeric_limits<uint64_t>::max());
  EXPECT_DEATH(seq.take(), "event log: line seqs must increase");
}

// Through the log's own interface: a log recovered at the last number cannot append.
TEST(EventLogDeathTest, AppendingPastTheLastSequenceNumberStopsTheProcess) {
  testing::TemporaryDirectory directory;
  testing::ReactorLoop loop;
  ASSERT_TRUE(loop.ready());
  EventLogSettings settings;
  settings.directory = directory.path() + "/events/core-0";
  EventLog log(loop.reactor(), loop.reactor().timers(), runtime::SystemClock::instance(), settings,
               std::numeric_limits<uint64_t>::max());
  EXPECT_DEATH(log.append(EventRecord{}), "event log: line seqs must increase");
}

}  // namespace
}  // namespace tracking::events
