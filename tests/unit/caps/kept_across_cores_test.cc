// KeptAcrossCores: the impressions one core keeps for the shared store counted on every
// core of the node, their changes carried between cores by the test as the reactors
// would carry them. In order, one batch per peer at a time, retried when a queue refuses.
#include "caps/kept_across_cores.h"

#include <deque>

#include "gtest/gtest.h"
#include "tests/unit/runtime/queue_channel.h"

namespace caps {
namespace {

constexpr uint64_t kSharedUser = 0xabc;
constexpr uint32_t kNodeCores = 3;

uint32_t kept_on(const KeptImpressions& kept, uint64_t user, uint64_t ad) {
  uint32_t n = 0;
  kept.for_user(user, [&](uint64_t a, uint32_t count) { n += a == ad ? count : 0; });
  return n;
}

class KeptAcrossCoresTest : public ::testing::Test {
 protected:
  KeptAcrossCoresTest() {
    for (uint32_t c = 0; c < kNodeCores; ++c) {
      channels_.push_back(std::make_unique<runtime::QueueChannel>(c, kNodeCores, posted_));
      sharing_.push_back(std::make_unique<KeptAcrossCores>(kept_[c], channels_[c].get(), &peers_, timers_));
    }
  }

  void start_all() {
    for (auto& s : sharing_) s->start();
    timers_.advance(now_ms_ += 10);
  }

  // Carries every posted message, and what they post in turn, to its core.
  void carry_all() {
    while (!posted_.empty()) {
      const runtime::Message message = posted_.front().message;
      posted_.pop_front();
      runtime::CrossCoreAsks<KeptNewsAsk>::deliver(message);
    }
  }

  std::deque<runtime::PostedMessage> posted_;
  std::vector<std::unique_ptr<runtime::QueueChannel>> channels_;
  runtime::AskPeers<KeptNewsAsk> peers_{kNodeCores};
  int64_t now_ms_ = 1000;
  runtime::TimerWheel timers_{now_ms_, 1};
  KeptImpressions kept_[kNodeCores];
  std::vector<std::unique_ptr<KeptAcrossCores>> sharing_;
};

TEST_F(KeptAcrossCoresTest, AnImpressionKeptOnOneCoreCountsOnEveryCoreUntilApplied) {
  start_all();
  kept_[1].add(kSharedUser, 7);
  kept_[1].add(kSharedUser, 7);
  EXPECT_EQ(kept_on(kept_[0], kSharedUser, 7), 0u) << "not before the message arrives";
  carry_all();
  for (uint32_t c = 0; c < kNodeCores; ++c) EXPECT_EQ(kept_on(kept_[c], kSharedUser, 7), 2u) << "core " << c;
  kept_[1].remove(kSharedUser, 7);
  carry_all();
  for (uint32_t c = 0; c < kNodeCores; ++c) EXPECT_EQ(kept_on(kept_[c], kSharedUser, 7), 1u) << "core " << c;
  kept_[1].remove(kSharedUser, 7);
  carry_all();
  for (uint32_t c = 0; c < kNodeCores; ++c) EXPECT_EQ(kept_[c].users(), 0u) << "core " << c;
}

TEST_F(KeptAcrossCoresTest, ChangesMadeWhileABatchIsOutFollowItInOrder) {
  start_all();
  kept_[0].add(kSharedUser, 1);  // the first batch to each peer leaves at once
  ASSERT_EQ(posted_.size(), kNodeCores - 1);
  kept_[0].remove(kSharedUser, 1);  // waits for it: a removal never arrives before its addition
  kept_[0].add(kSharedUser, 2);
  EXPECT_EQ(posted_.size(), kNodeCores - 1);
  EXPECT_EQ(sharing_[0]->waiting(1), 2u);
  carry_all();
  for (uint32_t c = 0; c < kNodeCores; ++c) {
    EXPECT_EQ(kept_on(kept_[c], kSharedUser, 1), 0u) << "core " << c;
    EXPECT_EQ(kept_on(kept_[c], kSharedUser, 2), 1u) << "core " << c;
  }
  EXPECT_EQ(sharing_[0]->waiting(1), 0u);
}

TEST_F(KeptAcrossCoresTest, WhatIsKeptBeforeTheCoresServeIsToldAtTheFirstTurn) {
  kept_[2].add(kSharedUser, 3);  // the start-up scan, before every core has joined
  EXPECT_TRUE(posted_.empty());
  start_all();
  carry_all();
  for (uint32_t c = 0; c < kNodeCores; ++c) EXPECT_EQ(kept_on(kept_[c], kSharedUser, 3), 1u) << "core " << c;
}

TEST_F(KeptAcrossCoresTest, ABatchTheQueueRefusesIsSentAgainLater) {
  start_all();
  channels_[0]->refuse = true;
  kept_[0].add(kSharedUser, 4);
  EXPECT_TRUE(posted_.empty());
  EXPECT_EQ(sharing_[0]->waiting(1), 1u) << "kept for the retry, not lost";
  channels_[0]->refuse = false;
  timers_.advance(now_ms_ += 100);
  carry_all();
  for (uint32_t c = 0; c < kNodeCores; ++c) EXPECT_EQ(kept_on(kept_[c], kSharedUser, 4), 1u) << "core " << c;
}

TEST(KeptAcrossCores, ACoreAloneTellsNobody) {
  KeptImpressions kept;
  runtime::TimerWheel timers{0, 1};
  KeptAcrossCores sharing(kept, nullptr, nullptr, timers);
  sharing.start();
  kept.add(kSharedUser, 1);
  EXPECT_EQ(kept_on(kept, kSharedUser, 1), 1u);
}

}  // namespace
}  // namespace caps
