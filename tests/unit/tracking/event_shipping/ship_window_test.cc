// One core's runs in flight (tracking/event_shipping/ship_window.h): the checkpoint moves
// over the contiguous acknowledged prefix only, whatever order the answers come in.
#include "tracking/event_shipping/ship_window.h"

#include "gtest/gtest.h"

namespace tracking::event_shipping {
namespace {

constexpr uint32_t kLength = 100;  // of every line

// Lines first..first+lines-1 as one run.
RunExtent run(uint64_t first, uint32_t lines = 1) {
  return {first, first + lines - 1, lines, static_cast<int64_t>(1000 + first), LogPosition{0, first * kLength},
          lines * kLength};
}

// Runs of `lines` lines each from first, count of them, published; floors 10, 11, ...
ShipWindow window_of(uint64_t first, uint64_t count, uint32_t lines = 1) {
  ShipWindow window(ShipCheckpoint{first, {0, first * kLength}, 9});
  for (uint64_t i = 0; i < count; ++i) window.add(run(first + i * lines, lines), 10 + i, 1, false);
  return window;
}

TEST(ShipWindow, TheCheckpointMovesOverTheContiguousAcknowledgedPrefixOnly) {
  ShipWindow window = window_of(0, 4, 3);  // runs 0-2, 3-5, 6-8, 9-11
  EXPECT_TRUE(window.acknowledge(6));
  EXPECT_TRUE(window.acknowledge(3));
  EXPECT_EQ(window.advance().lines, 0u);
  EXPECT_EQ(window.checkpoint({}, 99).next_seq, 0u);
  EXPECT_TRUE(window.acknowledge(0));
  const ShipWindow::Advance done = window.advance();
  EXPECT_EQ(done.lines, 9u);
  EXPECT_EQ(done.bytes, 9 * kLength);
  const ShipCheckpoint checkpoint = window.checkpoint({}, 99);
  EXPECT_EQ(checkpoint.next_seq, 9u);
  EXPECT_EQ(checkpoint.position, (LogPosition{0, 9 * kLength}));  // run 9-11, the oldest unacknowledged
  EXPECT_EQ(checkpoint.stream_floor, 13u);                         // its floor
}

TEST(ShipWindow, EveryRunAcknowledgedPutsTheCheckpointWhereReadingStands) {
  ShipWindow window = window_of(0, 2, 2);
  window.acknowledge(0);
  window.acknowledge(2);
  window.advance();
  EXPECT_TRUE(window.empty());
  EXPECT_EQ(window.checkpoint({7, 42}, 99), (ShipCheckpoint{4, {7, 42}, 99}));
}

TEST(ShipWindow, AnAnswerForNoPublishedRunChangesNothing) {
  ShipWindow window = window_of(5, 2, 2);  // runs 5-6, 7-8
  EXPECT_FALSE(window.acknowledge(4));
  EXPECT_FALSE(window.acknowledge(6));  // inside a run, not its first line
  EXPECT_FALSE(window.acknowledge(9));
  EXPECT_TRUE(window.acknowledge(5));
  EXPECT_FALSE(window.acknowledge(5));  // twice
  EXPECT_EQ(window.unanswered_lines(), 2u);
}

TEST(ShipWindow, UnacknowledgedRunsArePublishedAgainWholeOldestFirstAndTheAcknowledgedOnesNot) {
  ShipWindow window = window_of(0, 4, 2);
  window.acknowledge(2);
  EXPECT_EQ(window.republish_unacknowledged(), 6u);
  std::vector<std::pair<uint64_t, uint64_t>> again;
  while (ShipWindow::Run* next = window.next_to_publish()) {
    again.emplace_back(next->extent.first_seq, next->extent.last_seq);
    window.published(*next, 2);
  }
  EXPECT_EQ(again, (std::vector<std::pair<uint64_t, uint64_t>>{{0, 1}, {4, 5}, {6, 7}}));
  EXPECT_EQ(window.oldest_published_ms(), 2);
}

TEST(ShipWindow, ARunThatCouldNotBePublishedWaitsForTheNextPass) {
  ShipWindow window = window_of(0, 1);
  window.add(run(1, 5), 11, 1, false);
  window.retry_last();
  ShipWindow::Run* next = window.next_to_publish();
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->extent.first_seq, 1u);
  EXPECT_EQ(next->extent.lines, 5u);
}

TEST(ShipWindow, RunsFoundWholeInTheStreamCountAsAcknowledged) {
  ShipWindow window = window_of(0, 4, 2);  // runs 0-1, 2-3, 4-5, 6-7
  window.republish_unacknowledged();
  // 0-3 found as one range (two runs), 4-5 only in part, 6-7 whole.
  window.acknowledge_in_stream({{0, 3}, {5, 5}, {6, 9}});
  EXPECT_EQ(window.advance().lines, 4u);
  ShipWindow::Run* next = window.next_to_publish();
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->extent.first_seq, 4u);
  window.published(*next, 3);
  EXPECT_EQ(window.next_to_publish(), nullptr);
  window.add(run(8), 20, 3, /*in_stream=*/true);
  window.acknowledge(4);
  EXPECT_EQ(window.advance().lines, 5u);
  EXPECT_EQ(window.next_seq(), 9u);
}

TEST(ShipWindow, UnacknowledgedBytesAreTheRunsNotYetAnswered) {
  ShipWindow window = window_of(0, 3, 2);
  window.acknowledge(2);
  EXPECT_EQ(window.unacknowledged_bytes(), 4 * kLength);
}

TEST(ShipWindowDeathTest, RunsMustComeInSeqOrder) {
  ShipWindow window = window_of(0, 2, 2);
  EXPECT_DEATH(window.add(run(3), 11, 1, false), "runs must come in seq order");
}

}  // namespace
}  // namespace tracking::event_shipping
