// CrossCoreAsks: one kind of ask between two cores, its messages carried by the test as
// the reactors would carry them: the owner runs it, the asker takes the answer, the pool
// and per-peer bounds refuse, the queue budget is reserved and checked.
#include "runtime/cross_core_asks.h"

#include <deque>
#include <string>

#include "gtest/gtest.h"
#include "tests/unit/runtime/queue_channel.h"

namespace runtime {
namespace {

struct Doubler;

// A kind of ask: a number to double on its owner core.
struct DoubleAsk {
  using Service = Doubler;
  static constexpr uint32_t kPerPeer = 3;
  int value = 0;
  uint32_t served_on = UINT32_MAX;
};

struct Doubler {
  Doubler(uint32_t core, CoreChannel& channel, AskPeers<DoubleAsk>& peers, uint32_t pool)
      : core(core), asks(*this, &channel, &peers, pool) {}
  void serve_ask(DoubleAsk& ask, uint32_t from_core) {
    ask.value *= 2;
    ask.served_on = core;
    served_from = from_core;
  }
  bool finish_ask(DoubleAsk& ask) {
    answers.push_back(ask.value);
    return waiting;
  }
  uint32_t core;
  CrossCoreAsks<DoubleAsk> asks;
  std::vector<int> answers;
  uint32_t served_from = UINT32_MAX;
  bool waiting = true;
};

class CrossCoreAsksTest : public ::testing::Test {
 protected:
  using Asks = CrossCoreAsks<DoubleAsk>;

  // Carries the oldest posted message to its core.
  void carry() {
    ASSERT_FALSE(posted_.empty());
    const Message message = posted_.front().message;
    posted_.pop_front();
    Asks::deliver(message);
  }

  bool ask(Doubler& from, uint32_t owner, int value) {
    DoubleAsk* work = from.asks.take(owner);
    if (work == nullptr) return false;
    work->value = value;
    return from.asks.send(work);
  }

  std::deque<PostedMessage> posted_;
  QueueChannel channels_[2] = {{0, 2, posted_}, {1, 2, posted_}};
  AskPeers<DoubleAsk> peers_{2};
  Doubler cores_[2] = {{0, channels_[0], peers_, 8}, {1, channels_[1], peers_, 8}};
};

TEST_F(CrossCoreAsksTest, TheOwnerRunsTheAskAndTheAskerTakesTheAnswer) {
  ASSERT_TRUE(ask(cores_[0], 1, 21));
  ASSERT_EQ(posted_.size(), 1u);
  EXPECT_EQ(posted_.front().to, 1u);
  EXPECT_EQ(cores_[0].asks.in_flight(), 1u);
  carry();  // on core 1
  EXPECT_EQ(cores_[1].served_from, 0u);
  ASSERT_EQ(posted_.size(), 1u);
  EXPECT_EQ(posted_.front().to, 0u);
  carry();  // back on core 0
  EXPECT_EQ(cores_[0].answers, std::vector<int>{42});
  EXPECT_EQ(cores_[0].asks.in_flight(), 0u);
  EXPECT_EQ(cores_[0].asks.counters().sent.get(), 1u);
  EXPECT_EQ(cores_[1].asks.counters().served.get(), 1u);
  EXPECT_EQ(cores_[0].asks.counters().abandoned.get(), 0u);
}

TEST_F(CrossCoreAsksTest, AnAnswerNobodyWaitsForIsCountedAsAbandoned) {
  cores_[0].waiting = false;
  ASSERT_TRUE(ask(cores_[0], 1, 1));
  carry();
  carry();
  EXPECT_EQ(cores_[0].asks.counters().abandoned.get(), 1u);
  EXPECT_EQ(cores_[0].asks.in_flight(), 0u);
}

TEST_F(CrossCoreAsksTest, AtMostPerPeerAsksWaitOnOneCore) {
  for (uint32_t i = 0; i < DoubleAsk::kPerPeer; ++i) ASSERT_TRUE(ask(cores_[0], 1, 1)) << i;
  EXPECT_FALSE(ask(cores_[0], 1, 1));
  EXPECT_EQ(cores_[0].asks.counters().refused.get(), 1u);
  carry();  // the first ask, on core 1; its answer queues behind the other two asks
  const Message answer = posted_.back().message;
  posted_.pop_back();
  Asks::deliver(answer);  // back on core 0: room for one more
  EXPECT_TRUE(ask(cores_[0], 1, 1));
}

TEST_F(CrossCoreAsksTest, AFullQueueRefusesTheAskAndReturnsItsWork) {
  channels_[0].refuse = true;
  EXPECT_FALSE(ask(cores_[0], 1, 1));
  EXPECT_EQ(cores_[0].asks.counters().refused.get(), 1u);
  EXPECT_EQ(cores_[0].asks.counters().sent.get(), 0u);
  EXPECT_EQ(cores_[0].asks.in_flight(), 0u);
}

TEST_F(CrossCoreAsksTest, APoolOfZeroRefusesEveryAsk) {
  AskPeers<DoubleAsk> peers{2};
  std::deque<PostedMessage> posted;
  QueueChannel channel{0, 2, posted};
  Doubler alone{0, channel, peers, 0};
  EXPECT_EQ(alone.asks.take(1), nullptr);
  EXPECT_EQ(alone.asks.counters().refused.get(), 1u);
}

TEST_F(CrossCoreAsksTest, EachKindReservesTwicePerPeerSlotsOfEveryQueue) {
  EXPECT_EQ(queue_slots_of<DoubleAsk>(), 2 * DoubleAsk::kPerPeer);
  EXPECT_EQ(channels_[0].queue_slots_reserved(), kQueueSlotsForOneWay + 2 * DoubleAsk::kPerPeer);
}

TEST_F(CrossCoreAsksTest, AnAnswerTheQueueHomeRefusesStopsTheProcess) {
  ASSERT_TRUE(ask(cores_[0], 1, 1));
  channels_[1].refuse = true;
  const Message message = posted_.front().message;
  EXPECT_DEATH(Asks::deliver(message), "check failed: .*a cross-core answer found its queue home full");
}

TEST(CrossCoreAsksBudget, KindsThatOverflowTheQueueStopTheProcessAtStart) {
  std::deque<PostedMessage> posted;
  QueueChannel channel{0, 2, posted};
  channel.reserve_queue_slots(channel.queue_capacity() - kQueueSlotsForOneWay);  // full
  EXPECT_DEATH(channel.reserve_queue_slots(1), "check failed: .*overflow the message queue");
}

TEST(CrossCoreAsksPeers, TwoServicesOfOneKindOnOneCoreStopTheProcess) {
  std::deque<PostedMessage> posted;
  QueueChannel channel{0, 2, posted};
  AskPeers<DoubleAsk> peers{2};
  Doubler first{0, channel, peers, 1};
  EXPECT_DEATH(Doubler(0, channel, peers, 1), "check failed: .*two services of one kind joined on one core");
}

}  // namespace
}  // namespace runtime
