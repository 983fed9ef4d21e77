// One core's lines in flight (tracking/event_shipping/ship_window.h): the checkpoint moves
// over the contiguous acknowledged prefix only, whatever order the answers come in.
#include "tracking/event_shipping/ship_window.h"

#include "gtest/gtest.h"

namespace tracking::event_shipping {
namespace {

constexpr uint32_t kLength = 100;

ShippableLine line(uint64_t seq) {
  return {seq, static_cast<int64_t>(1000 + seq), {}, LogPosition{0, seq * kLength}, kLength};
}

// Lines first..first+count-1 published, floors 10, 11, ...
ShipWindow window_of(uint64_t first, uint64_t count) {
  ShipWindow window(ShipCheckpoint{first, {0, first * kLength}, 9});
  for (uint64_t s = first; s < first + count; ++s) window.add(line(s), 10 + s - first, 1, false);
  return window;
}

TEST(ShipWindow, TheCheckpointMovesOverTheContiguousAcknowledgedPrefixOnly) {
  ShipWindow window = window_of(0, 4);
  EXPECT_TRUE(window.acknowledge(2));
  EXPECT_TRUE(window.acknowledge(1));
  EXPECT_EQ(window.advance().lines, 0u);
  EXPECT_EQ(window.checkpoint({}, 99).next_seq, 0u);
  EXPECT_TRUE(window.acknowledge(0));
  const ShipWindow::Advance done = window.advance();
  EXPECT_EQ(done.lines, 3u);
  EXPECT_EQ(done.bytes, 3 * kLength);
  const ShipCheckpoint checkpoint = window.checkpoint({}, 99);
  EXPECT_EQ(checkpoint.next_seq, 3u);
  EXPECT_EQ(checkpoint.position, (LogPosition{0, 3 * kLength}));  // line 3, the oldest unacknowledged
  EXPECT_EQ(checkpoint.stream_floor, 13u);                         // its floor
}

TEST(ShipWindow, EveryLineAcknowledgedPutsTheCheckpointWhereReadingStands) {
  ShipWindow window = window_of(0, 2);
  window.acknowledge(0);
  window.acknowledge(1);
  window.advance();
  EXPECT_TRUE(window.empty());
  EXPECT_EQ(window.checkpoint({7, 42}, 99), (ShipCheckpoint{2, {7, 42}, 99}));
}

TEST(ShipWindow, AnAnswerForNoPublishedLineChangesNothing) {
  ShipWindow window = window_of(5, 2);
  EXPECT_FALSE(window.acknowledge(4));
  EXPECT_FALSE(window.acknowledge(9));
  EXPECT_TRUE(window.acknowledge(5));
  EXPECT_FALSE(window.acknowledge(5));  // twice
  EXPECT_EQ(window.unanswered(), 1u);
}

TEST(ShipWindow, UnacknowledgedLinesArePublishedAgainOldestFirstAndTheAcknowledgedOnesNot) {
  ShipWindow window = window_of(0, 4);
  window.acknowledge(1);
  EXPECT_EQ(window.republish_unacknowledged(), 3u);
  std::vector<uint64_t> again;
  while (ShipWindow::Line* next = window.next_to_publish()) {
    again.push_back(next->seq);
    window.published(*next, 2);
  }
  EXPECT_EQ(again, (std::vector<uint64_t>{0, 2, 3}));
  EXPECT_EQ(window.oldest_published_ms(), 2);
}

TEST(ShipWindow, ALineThatCouldNotBePublishedWaitsForTheNextPass) {
  ShipWindow window = window_of(0, 1);
  window.add(line(1), 11, 1, false);
  window.retry_last();
  ShipWindow::Line* next = window.next_to_publish();
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->seq, 1u);
}

TEST(ShipWindow, LinesFoundInTheStreamCountAsAcknowledged) {
  ShipWindow window = window_of(0, 4);
  window.republish_unacknowledged();
  window.acknowledge_in_stream({0, 1, 3, 7});
  EXPECT_EQ(window.advance().lines, 2u);
  ShipWindow::Line* next = window.next_to_publish();
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->seq, 2u);
  window.published(*next, 3);
  EXPECT_EQ(window.next_to_publish(), nullptr);
  window.add(line(4), 20, 3, /*in_stream=*/true);
  window.acknowledge(2);
  EXPECT_EQ(window.advance().lines, 3u);
  EXPECT_EQ(window.next_seq(), 5u);
}

TEST(ShipWindow, UnacknowledgedBytesAreTheLinesNotYetAnswered) {
  ShipWindow window = window_of(0, 3);
  window.acknowledge(1);
  EXPECT_EQ(window.unacknowledged_bytes(), 2 * kLength);
}

TEST(ShipWindowDeathTest, LinesMustComeInSeqOrder) {
  ShipWindow window = window_of(0, 2);
  EXPECT_DEATH(window.add(line(1), 11, 1, false), "lines must come in seq order");
}

}  // namespace
}  // namespace tracking::event_shipping
