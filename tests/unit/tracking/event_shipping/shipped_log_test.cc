// One core's log on its way (tracking/event_shipping/shipped_log.h): its checkpoint at
// start, what a read-back found, what is behind.
#include "tracking/event_shipping/shipped_log.h"

#include <fstream>

#include "gtest/gtest.h"
#include "tests/unit/tracking/event_shipping/log_dir.h"

namespace tracking::event_shipping {
namespace {

constexpr CursorSettings kListEveryTime{.chunk_bytes = 4096, .list_interval_ms = 0};

TEST(ShippedLog, WithoutACheckpointNothingWasPublishedAndNothingIsReadBack) {
  LogDir log;
  std::string problem;
  ShippedLog shipped(0, log.core_dir(0), kListEveryTime, &problem);
  EXPECT_TRUE(problem.empty());
  EXPECT_FALSE(shipped.has_checkpoint());
  EXPECT_FALSE(shipped.needs_read_back());
}

TEST(ShippedLog, ACheckpointMeansAReadBackFromItsFloorAndReadingFromItsPosition) {
  LogDir log;
  log.append(0, LogDir::lines(0, 4));
  ASSERT_TRUE(write_checkpoint(log.core_dir(0), {2, {0, 2 * LogDir::line(0).size()}, 77}, false).ok());
  std::string problem;
  ShippedLog shipped(0, log.core_dir(0), kListEveryTime, &problem);
  EXPECT_TRUE(shipped.has_checkpoint());
  EXPECT_TRUE(shipped.needs_read_back());
  EXPECT_EQ(shipped.read_back_floor(), 77u);
  EXPECT_EQ(shipped.cursor().next(0)->seq, 2u);
}

TEST(ShippedLog, ACheckpointThatIsNotOneIsSaidAndTheWholeLogIsReadBackFromTheStreamsStart) {
  LogDir log;
  log.append(0, LogDir::lines(0, 2));
  std::ofstream(checkpoint_path(log.core_dir(0))) << "garbage\n";
  std::string problem;
  ShippedLog shipped(0, log.core_dir(0), kListEveryTime, &problem);
  EXPECT_NE(problem.find("not a shipping checkpoint"), std::string::npos) << problem;
  EXPECT_TRUE(shipped.needs_read_back());
  EXPECT_EQ(shipped.read_back_floor(), 0u);
  EXPECT_EQ(shipped.cursor().next(0)->seq, 0u);
}

TEST(ShippedLog, WhatTheStreamHoldsAfterTheFloorIsNotPublishedAgain) {
  LogDir log;
  log.append(0, LogDir::lines(0, 12));
  ASSERT_TRUE(write_checkpoint(log.core_dir(0), {1, {0, LogDir::line(0).size()}, 100}, false).ok());
  std::string problem;
  ShippedLog shipped(0, log.core_dir(0), kListEveryTime, &problem);
  // (stream seq, first seq, last seq): run 0-1 began before the checkpoint (line 1 counts),
  // line 2's copy at 90 is older than the floor (another incarnation's), runs 3-4 and 5-6 of
  // this log were cut by another bound than 8-10's.
  EXPECT_EQ(shipped.found_in_stream({{101, 0, 1}, {90, 2, 2}, {102, 3, 4}, {103, 5, 6}, {104, 8, 10}}, 200), 8u);
  EXPECT_FALSE(shipped.needs_read_back());
  EXPECT_TRUE(shipped.take_in_stream(1));
  EXPECT_FALSE(shipped.take_in_stream(2));
  for (uint64_t seq : {3, 4, 5, 6}) EXPECT_TRUE(shipped.take_in_stream(seq)) << seq;
  EXPECT_FALSE(shipped.take_in_stream(7));
  for (uint64_t seq : {8, 9, 10}) EXPECT_TRUE(shipped.take_in_stream(seq)) << seq;
  EXPECT_FALSE(shipped.take_in_stream(11));
}

TEST(ShippedLog, AStreamMadeAgainHasEverythingFoundCount) {
  LogDir log;
  ASSERT_TRUE(write_checkpoint(log.core_dir(0), {0, {}, 500}, false).ok());
  std::string problem;
  ShippedLog shipped(0, log.core_dir(0), kListEveryTime, &problem);
  EXPECT_EQ(shipped.found_in_stream({{3, 0, 0}, {4, 1, 3}}, 40), 4u);
}

TEST(ShippedLog, ARunIsReadAgainFromItsPositionAsItsLinesJoinedByLineFeeds) {
  LogDir log;
  log.append(0, LogDir::lines(0, 4));
  std::string problem;
  ShippedLog shipped(0, log.core_dir(0), kListEveryTime, &problem);
  RunExtent run;
  run.first_seq = 1;
  run.last_seq = 2;
  run.lines = 2;
  run.position = {0, LogDir::line(0).size()};
  run.length = static_cast<uint32_t>(LogDir::line(1).size() + LogDir::line(2).size());
  std::string bytes;
  ASSERT_TRUE(shipped.read_run(run, bytes));
  EXPECT_EQ(bytes + "\n", LogDir::line(1) + LogDir::line(2));
  run.length += 3;  // not whole lines there
  EXPECT_FALSE(shipped.read_run(run, bytes));
}

TEST(ShippedLog, TheBacklogCountsWhatIsWrittenAndNotAcknowledged) {
  LogDir log;
  log.append(0, LogDir::lines(0, 3));
  log.append(3, LogDir::lines(3, 2) + LogDir::line(5).substr(0, 10));
  std::string problem;
  ShippedLog shipped(0, log.core_dir(0), kListEveryTime, &problem);
  const LogBacklog before = shipped.backlog();
  EXPECT_EQ(before.lines, 5u);
  EXPECT_EQ(before.bytes, 5 * LogDir::line(0).size() + 10);
  EXPECT_EQ(before.oldest_ms, 1'790'000'000'000);
  const std::optional<ShippableLine> first = shipped.cursor().next(0);
  shipped.window().add(RunExtent{first->seq, first->seq, 1, first->time_ms, first->position, first->length}, 1, 1,
                       false);
  shipped.window().acknowledge(0);
  shipped.window().advance();
  EXPECT_EQ(shipped.backlog().lines, 4u);
}

}  // namespace
}  // namespace tracking::event_shipping
