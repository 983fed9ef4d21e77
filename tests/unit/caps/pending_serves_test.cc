// Pending serves in the in-process store: docs/caps.md "Pending serves", one test per rule.
#include "caps/pending_serves.h"

#include "caps/cap_partition.h"
#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "tests/unit/caps/cap_test_values.h"

namespace caps {
namespace {

using testing::kNow;
constexpr int64_t kWindowS = 30;
using testing::kUser;
const CapRule kTwoPerHour[] = {{2, 3600}};

CapPartition with_serve_window() {
  CapPartition caps;
  caps.set_serve_window(kWindowS);
  return caps;
}

TEST(PendingServes, WithoutAServeWindowAServeIsNeverPending) {
  CapPartition caps;
  caps.add_pending(kUser, 7, kNow);
  caps.add_pending(kUser, 7, kNow);
  EXPECT_EQ(caps.pending(kUser, 7, kNow), 0u);
  EXPECT_TRUE(caps.allows(kUser, 7, kTwoPerHour, kNow));
  EXPECT_EQ(caps.entries(), 0u);
}

TEST(PendingServes, ServesCountAgainstTheCapBeforeTheirImpressions) {
  CapPartition caps = with_serve_window();
  caps.add_pending(kUser, 7, kNow);
  EXPECT_TRUE(caps.allows(kUser, 7, kTwoPerHour, kNow));
  caps.add_pending(kUser, 7, kNow + 1);
  EXPECT_EQ(caps.pending(kUser, 7, kNow + 1), 2u);
  EXPECT_FALSE(caps.allows(kUser, 7, kTwoPerHour, kNow + 1));
  EXPECT_TRUE(caps.allows(kUser, 8, kTwoPerHour, kNow + 1)) << "another ad is not held";
  EXPECT_TRUE(caps.allows(user_key("u2"), 7, kTwoPerHour, kNow + 1)) << "another user is not held";
}

TEST(PendingServes, AnImpressionTurnsItsPendingServeIntoACountedOne) {
  CapPartition caps = with_serve_window();
  caps.add_pending(kUser, 7, kNow);
  caps.record(kUser, 7, kTwoPerHour, kNow + 2);
  caps.clear_pending(kUser, 7, kNow, kNow + 2);
  EXPECT_EQ(caps.pending(kUser, 7, kNow + 2), 0u);
  uint64_t counted[1] = {};
  caps.count(kUser, 7, kTwoPerHour, kNow + 2, counted);
  EXPECT_EQ(counted[0], 1u);
  EXPECT_TRUE(caps.allows(kUser, 7, kTwoPerHour, kNow + 2));
}

TEST(PendingServes, APendingServeLapsesWhenTheWindowEnds) {
  CapPartition caps = with_serve_window();
  caps.add_pending(kUser, 7, kNow);
  caps.add_pending(kUser, 7, kNow);
  EXPECT_FALSE(caps.allows(kUser, 7, kTwoPerHour, kNow + kWindowS - 1));
  EXPECT_TRUE(caps.allows(kUser, 7, kTwoPerHour, kNow + kWindowS));
  EXPECT_EQ(caps.pending(kUser, 7, kNow + kWindowS), 0u);
}

TEST(PendingServes, AnImpressionClearsItsOwnServeOrAnOlderOneNeverALaterOne) {
  CapPartition caps = with_serve_window();
  caps.add_pending(kUser, 7, kNow);       // lapses at kNow + 30
  caps.add_pending(kUser, 7, kNow + 10);  // lapses at kNow + 40
  // The impression of the first serve clears the first: the second still lapses at +40.
  caps.clear_pending(kUser, 7, kNow, kNow + 11);
  EXPECT_EQ(caps.pending(kUser, 7, kNow + 35), 1u);
  CapPartition later = with_serve_window();
  later.add_pending(kUser, 7, kNow + 10);
  // An impression issued before every pending serve clears none of them.
  later.clear_pending(kUser, 7, kNow, kNow + 11);
  EXPECT_EQ(later.pending(kUser, 7, kNow + 11), 1u);
}

TEST(PendingServes, AnImpressionOfALapsedServeClearsNothing) {
  CapPartition caps = with_serve_window();
  caps.add_pending(kUser, 7, kNow);
  caps.add_pending(kUser, 7, kNow + 40);
  caps.clear_pending(kUser, 7, kNow, kNow + 41);  // its own lapsed at kNow + 30
  EXPECT_EQ(caps.pending(kUser, 7, kNow + 41), 1u);
}

TEST(PendingServes, AtMostTheBoundArePendingAtOnce) {
  CapPartition caps = with_serve_window();
  for (uint32_t i = 0; i < kMaxPending + 5; ++i) caps.add_pending(kUser, 7, kNow);
  EXPECT_EQ(caps.pending(kUser, 7, kNow), kMaxPending);
  const CapRule many[] = {{100, 3600}};
  EXPECT_TRUE(caps.allows(kUser, 7, many, kNow)) << "past the bound a serve is not held";
}

TEST(PendingServes, ASaturatedEntryFreesASlotWhenOneLapses) {
  CapEntry e;
  for (uint32_t i = 0; i < 5; ++i) ASSERT_TRUE(add_pending_serve(e, kNow + 10 + i, kNow));
  EXPECT_FALSE(add_pending_serve(e, kNow + 20, kNow));
  EXPECT_TRUE(add_pending_serve(e, kNow + 30, kNow + 10)) << "the serve lapsing at +10 has lapsed";
  EXPECT_EQ(pending_in(e, kNow + 10), 5u);
}

}  // namespace
}  // namespace caps
