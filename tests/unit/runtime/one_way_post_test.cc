// One-way posts (runtime/one_way_post.h): a core keeps to its share of each queue, keeps
// what does not fit in its outbox and posts it later, in order; the main thread waits for
// room instead of failing or sleeping in a loop. Never a message lost, never one refused.
#include "runtime/one_way_post.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/core_group.h"
#include "tests/unit/runtime/reactor_test_loop.h"

namespace runtime {
namespace {

Message numbered(uint32_t n) {
  Message m;
  m.tag = n;
  return m;
}

// Every tag the receiver finds in the queue, in order.
std::vector<uint32_t> take_all(SpscQueue<Message>& queue) {
  std::vector<uint32_t> tags;
  while (std::optional<Message> m = queue.pop()) tags.push_back(m->tag);
  return tags;
}

TEST(OneWayPosts, PostAtOnceWhileTheShareHasRoom) {
  Mailbox mailbox(2);
  OneWayPosts posts(mailbox, 0);
  for (uint32_t n = 0; n < kQueueSlotsForOneWay; ++n) EXPECT_TRUE(posts.post(1, numbered(n)));
  EXPECT_EQ(posts.in_queue(1), kQueueSlotsForOneWay);
  EXPECT_FALSE(posts.keeps_any());
  EXPECT_EQ(mailbox.one_way_counters(0).kept.get(), 0u);
}

TEST(OneWayPosts, PastTheShareTheyAreKeptAndCounted) {
  Mailbox mailbox(2);
  OneWayPosts posts(mailbox, 0);
  for (uint32_t n = 0; n < kQueueSlotsForOneWay + 3; ++n) EXPECT_EQ(posts.post(1, numbered(n)), n < kQueueSlotsForOneWay);
  EXPECT_EQ(posts.kept(), 3u);
  EXPECT_EQ(mailbox.one_way_counters(0).kept.get(), 3u);
  EXPECT_EQ(take_all(mailbox.queue(0, 1)).size(), kQueueSlotsForOneWay);  // the share, no more
}

TEST(OneWayPosts, KeptOnesGoOnceTheReceiverTookSomeInTheOrderPosted) {
  Mailbox mailbox(2);
  OneWayPosts posts(mailbox, 0);
  constexpr uint32_t kPosted = kQueueSlotsForOneWay + 5;
  for (uint32_t n = 0; n < kPosted; ++n) (void)posts.post(1, numbered(n));
  std::vector<uint32_t> arrived;
  for (int i = 0; i < 3; ++i) arrived.push_back(mailbox.queue(0, 1).pop()->tag);
  std::vector<uint32_t> woken;
  posts.post_kept([&](uint32_t core) { woken.push_back(core); });
  EXPECT_EQ(woken, std::vector<uint32_t>{1});  // one wake for the core that got them
  EXPECT_EQ(posts.kept(), 2u);                 // three went: the share is full again
  for (uint32_t tag : take_all(mailbox.queue(0, 1))) arrived.push_back(tag);
  posts.post_kept([](uint32_t) {});
  EXPECT_FALSE(posts.keeps_any());
  for (uint32_t tag : take_all(mailbox.queue(0, 1))) arrived.push_back(tag);
  ASSERT_EQ(arrived.size(), kPosted);
  for (uint32_t n = 0; n < kPosted; ++n) EXPECT_EQ(arrived[n], n);
}

TEST(OneWayPosts, APostBehindAKeptOneWaitsForItEvenWithRoom) {
  Mailbox mailbox(2);
  OneWayPosts posts(mailbox, 0);
  for (uint32_t n = 0; n <= kQueueSlotsForOneWay; ++n) (void)posts.post(1, numbered(n));
  take_all(mailbox.queue(0, 1));  // room now, but one is kept
  EXPECT_FALSE(posts.post(1, numbered(100)));
  posts.post_kept([](uint32_t) {});
  EXPECT_EQ(take_all(mailbox.queue(0, 1)), (std::vector<uint32_t>{kQueueSlotsForOneWay, 100}));
}

TEST(OneWayPosts, TheyNeverTakeTheSlotsOfAsksAndAnswers) {
  Mailbox mailbox(2);
  OneWayPosts posts(mailbox, 0);
  for (uint32_t n = 0; n < 2 * kQueueSlotsForOneWay; ++n) (void)posts.post(1, numbered(n));
  // Asks and answers go straight into the queue: every slot but the share is theirs.
  SpscQueue<Message>& queue = mailbox.queue(0, 1);
  for (uint32_t i = 0; i < queue.capacity() - kQueueSlotsForOneWay; ++i) ASSERT_TRUE(queue.push(numbered(7)));
  EXPECT_FALSE(queue.push(numbered(7)));
  EXPECT_EQ(posts.kept(), kQueueSlotsForOneWay);
}

TEST(OneWayPosts, EachReceiverHasItsOwnShare) {
  Mailbox mailbox(3);
  OneWayPosts posts(mailbox, 1);
  for (uint32_t n = 0; n < kQueueSlotsForOneWay + 1; ++n) (void)posts.post(2, numbered(n));
  EXPECT_TRUE(posts.post(0, numbered(0)));
  EXPECT_TRUE(posts.post(1, numbered(0)));  // to itself, as a snapshot step goes
  EXPECT_EQ(mailbox.queue(1, 0).pop()->from_core, 1u);
}

TEST(OneWayPostsDeathTest, AnOutboxPastItsBoundStopsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Mailbox mailbox(2);
  OneWayPosts posts(mailbox, 0);
  EXPECT_DEATH(
      {
        for (uint32_t n = 0; n <= kQueueSlotsForOneWay + OneWayPosts::kMaxKept; ++n) (void)posts.post(1, numbered(n));
      },
      "outbox's bound");
}

CoreGroupConfig cores(uint32_t count) {
  CoreGroupConfig config;
  config.cores = count;
  config.reactor = testing::small_reactor(/*tick_ms=*/10);
  return config;
}

// Written by the receiving core only, read by the test thread.
std::atomic<uint32_t> arrivals{0};
std::atomic<bool> out_of_order{false};
std::atomic<bool> spinning{false};

void count_in_order(Reactor&, const Message& m) {
  if (m.tag != arrivals.load()) out_of_order.store(true);
  arrivals.store(arrivals.load() + 1);
}

// Keeps the core from taking messages for a while, as a long turn does.
void spin_100ms(Reactor&, const Message&) {
  spinning.store(true);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (std::chrono::steady_clock::now() < until) {
  }
}

bool wait_for(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return done();
}

constexpr uint32_t kFromCore = 20;

// On core 0: one-way posts to core 1, which is busy, more than the share holds.
void post_to_busy_core(Reactor& here, const Message&) {
  for (uint32_t n = 0; n < kFromCore; ++n) {
    Message m;
    m.run = &count_in_order;
    m.tag = n;
    here.post_one_way(1, m);
  }
}

TEST(OneWayPostsOnReactors, WhatACoreKeptArrivesInOrderOnceTheReceiverTakes) {
  arrivals.store(0);
  out_of_order.store(false);
  spinning.store(false);
  std::atomic<Reactor*> sender{nullptr};
  CoreGroup group(cores(2), SystemClock::instance());
  ASSERT_TRUE(group.start(
                       [&](Reactor& r) {
                         if (r.index() == 0) sender.store(&r);
                         return absl::OkStatus();
                       },
                       [](Reactor&) {})
                  .ok());
  Message spin;
  spin.run = &spin_100ms;
  group.post_one_way(1, spin);
  ASSERT_TRUE(wait_for([] { return spinning.load(); }));
  Message post;
  post.run = &post_to_busy_core;
  group.post_one_way(0, post);
  EXPECT_TRUE(wait_for([] { return arrivals.load() == kFromCore; }));
  EXPECT_FALSE(out_of_order.load());
  EXPECT_EQ(sender.load()->one_way_counters().kept.get(), kFromCore - kQueueSlotsForOneWay);
  Message stop;
  stop.run = &testing::stop_core;
  group.post_one_way(0, stop);
  group.post_one_way(1, stop);
  group.join();
}

TEST(OneWayPostsFromTheMainThread, AFullQueueIsWaitedOnNotRefused) {
  arrivals.store(0);
  out_of_order.store(false);
  spinning.store(false);
  CoreGroup group(cores(1), SystemClock::instance());
  ASSERT_TRUE(group.start([](Reactor&) { return absl::OkStatus(); }, [](Reactor&) {}).ok());
  Message spin;
  spin.run = &spin_100ms;
  group.post_one_way(0, spin);
  // More than the queue holds while the core spins: the main thread waits for it to take.
  const uint32_t posted = Mailbox::kDefaultQueueCapacity + 100;
  for (uint32_t n = 0; n < posted; ++n) {
    Message m;
    m.run = &count_in_order;
    m.tag = n;
    group.post_one_way(0, m);
  }
  EXPECT_TRUE(wait_for([&] { return arrivals.load() == posted; }));
  EXPECT_FALSE(out_of_order.load());
  EXPECT_GE(group.mailbox().one_way_counters(0).waited.get(), 1u);
  Message stop;
  stop.run = &testing::stop_core;
  group.post_one_way(0, stop);
  group.join();
}

TEST(OneWayPostsFromTheMainThreadDeathTest, AFullQueueOfACoreNotRunningStopsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  CoreGroup group(cores(1), SystemClock::instance());  // never started: nobody takes
  Message m;
  m.run = &count_in_order;
  EXPECT_DEATH(
      {
        for (uint32_t n = 0; n <= Mailbox::kDefaultQueueCapacity; ++n) group.post_one_way(0, m);
      },
      "a core that is not running");
}

}  // namespace
}  // namespace runtime
