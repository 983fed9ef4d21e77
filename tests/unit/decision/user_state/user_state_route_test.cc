// The two routes to a user's state (decision/user_state/), each against the contract of
// user_state_route.h: here now, away and back through arrive() with the state there, or
// refused at a bound; the handler above never learns which route it has.
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <string>
#include <utility>

#include "caps/cap_partition.h"
#include "caps/user_key.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/user_state/owner_core_route.h"
#include "decision/user_state/shared_store_route.h"
#include "tests/unit/runtime/queue_channel.h"

namespace decision::user_state {
namespace {

using endpoint::DecisionAsk;

constexpr uint64_t kAd = 7;
constexpr int64_t kNowS = 1'800'000'000;
const caps::CapRule kOnePerHour[] = {{1, 3600}};

// What a handler does: asks the route, and on arrival asks again and reads the state.
class RecordingUser final : public RouteUser {
 public:
  explicit RecordingUser(UserStateRoute& route) : route_(route) { route_.serve(*this); }
  void arrive(const http::Request& request, http::Response& reply, const ForwardedRequest& travelled) override {
    ++arrivals;
    body = std::string(request.body);
    path = std::string(request.path);
    travelled_ = &travelled;
    reached_on_arrival = route_.reach({.user_key = user_key}, request, reply).reach;
    allowed_on_arrival = route_.state().allows(user_key, kAd, kOnePerHour, kNowS);
    reply.set_status(204);
  }

  uint64_t user_key = 0;
  int arrivals = 0;
  std::string body;
  std::string path;
  const ForwardedRequest* travelled_ = nullptr;
  Reach reached_on_arrival = Reach::kRefused;
  bool allowed_on_arrival = true;

 private:
  UserStateRoute& route_;
};

http::Request decision_request(std::string_view body) {
  http::Request request;
  request.method = http::Method::kPost;
  request.path = "/v1/decision";
  request.headers[request.header_count++] = {"Content-Type", "application/json"};
  request.body = body;
  return request;
}

// The first user id of the form "user-<n>" that core `core` of 2 owns.
uint64_t key_owned_by(uint32_t core) {
  for (int n = 0;; ++n) {
    const uint64_t key = caps::user_key("user-" + std::to_string(n));
    if (caps::owner_core(key, 2) == core) return key;
  }
}

class OwnerCoreRouteTest : public ::testing::Test {
 protected:
  using Route = OwnerCoreRoute<DecisionAsk>;
  using Asks = runtime::CrossCoreAsks<DecisionAsk>;

  std::deque<runtime::PostedMessage> posted_;
  runtime::QueueChannel channels_[2] = {{0, 2, posted_}, {1, 2, posted_}};
  caps::CapPartition partitions_[2];
  runtime::AskPeers<DecisionAsk> peers_{2};
  Route routes_[2] = {{"/v1/decision", partitions_[0], 0, &channels_[0], &peers_, 2},
                      {"/v1/decision", partitions_[1], 1, &channels_[1], &peers_, 2}};
  RecordingUser users_[2] = {RecordingUser(routes_[0]), RecordingUser(routes_[1])};
  http::Response response_;
};

TEST_F(OwnerCoreRouteTest, AUserThisCoreOwnsIsReadHereFromItsPartition) {
  const uint64_t key = key_owned_by(0);
  partitions_[0].record(key, kAd, kOnePerHour, kNowS - 60);
  const http::Request request = decision_request("{}");
  EXPECT_EQ(routes_[0].reach({.user_key = key}, request, response_).reach, Reach::kHere);
  EXPECT_FALSE(routes_[0].state().allows(key, kAd, kOnePerHour, kNowS));
  EXPECT_TRUE(posted_.empty());
  EXPECT_EQ(routes_[0].counters().reads.get(), 1u);
  EXPECT_EQ(routes_[0].owner_core(key), 0u);
  EXPECT_EQ(routes_[0].received_on_core(), 0u);
}

TEST_F(OwnerCoreRouteTest, AnotherCoresUserGoesThereAndArrivesWithThatCoresState) {
  const uint64_t key = key_owned_by(1);
  partitions_[1].record(key, kAd, kOnePerHour, kNowS - 60);
  users_[1].user_key = key;
  const std::string body = R"({"placements":[{"key":"p"}]})";
  const Reached reached = routes_[0].reach({.user_key = key}, decision_request(body), response_);
  EXPECT_EQ(reached.reach, Reach::kAway);
  EXPECT_FALSE(reached.waits_here);
  EXPECT_TRUE(response_.deferred());
  ASSERT_EQ(posted_.size(), 1u);
  EXPECT_EQ(posted_.front().to, 1u);

  Asks::deliver(posted_.front().message);  // on core 1
  posted_.pop_front();
  EXPECT_EQ(users_[1].arrivals, 1);
  EXPECT_EQ(users_[1].body, body);
  EXPECT_EQ(users_[1].path, "/v1/decision");
  EXPECT_EQ(users_[1].travelled_, reached.travelling);
  EXPECT_EQ(users_[1].reached_on_arrival, Reach::kHere);
  EXPECT_FALSE(users_[1].allowed_on_arrival) << "read from core 1's partition, which counted the impression";
  EXPECT_EQ(routes_[1].counters().reads.get(), 1u);
  EXPECT_EQ(routes_[0].counters().reads.get(), 0u);

  ASSERT_EQ(posted_.size(), 1u);
  Asks::deliver(posted_.front().message);  // the answer, home on core 0
  posted_.pop_front();
  EXPECT_EQ(routes_[0].in_flight(), 0u);
  EXPECT_EQ(routes_[1].ask_counters().served.get(), 1u);
}

TEST_F(OwnerCoreRouteTest, AtTheBoundOrAFullQueueItIsRefused) {
  const uint64_t key = key_owned_by(1);
  const http::Request request = decision_request("{}");
  channels_[0].refuse = true;
  EXPECT_EQ(routes_[0].reach({.user_key = key}, request, response_).reach, Reach::kRefused);
  EXPECT_TRUE(posted_.empty());
  channels_[0].refuse = false;
  for (int i = 0; i < 2; ++i) {
    http::Response waiting;
    EXPECT_EQ(routes_[0].reach({.user_key = key}, request, waiting).reach, Reach::kAway);
  }
  http::Response refused;
  EXPECT_EQ(routes_[0].reach({.user_key = key}, request, refused).reach, Reach::kRefused);
  EXPECT_FALSE(refused.deferred()) << "no ask was free: nothing was captured";
  EXPECT_EQ(posted_.size(), 2u);
  EXPECT_EQ(routes_[0].counters().refused.get(), 2u);
}

// A store that answers when the test says, or refuses every read.
class AnswerWhenToldStore final : public caps::SharedCapStore {
 public:
  bool read(uint64_t, caps::CapReadDone& done) override {
    if (refuse) return false;
    waiting_.push_back(&done);
    return true;
  }
  bool count_impression(const caps::ImpressionStep&, caps::ImpressionDone&) override { return false; }
  void add_pending(uint64_t user_key, uint64_t ad_id, int64_t) override { pending.emplace_back(user_key, ad_id); }

  void answer_all(const caps::CapReader* state) {
    std::deque<caps::CapReadDone*> answering = std::exchange(waiting_, {});
    for (caps::CapReadDone* done : answering) done->on_caps_read(state);
  }
  size_t waiting() const { return waiting_.size(); }

  bool refuse = false;
  std::deque<std::pair<uint64_t, uint64_t>> pending;

 private:
  std::deque<caps::CapReadDone*> waiting_;
};

class SharedStoreRouteTest : public ::testing::Test {
 protected:
  AnswerWhenToldStore store_;
  SharedStoreRoute route_{"/admin/explain", store_, 3, 4};
  RecordingUser user_{route_};
  caps::CapPartition state_;  // what the store sends back
  http::Response response_;
};

TEST_F(SharedStoreRouteTest, ARequestWaitsHereAndArrivesWithTheStateTheStoreSent) {
  const uint64_t key = caps::user_key("u1");
  user_.user_key = key;
  state_.record(key, kAd, kOnePerHour, kNowS - 60);
  const Reached reached = route_.reach({.user_key = key}, decision_request("{}"), response_);
  EXPECT_EQ(reached.reach, Reach::kAway);
  EXPECT_TRUE(reached.waits_here);
  EXPECT_TRUE(response_.deferred());
  EXPECT_EQ(store_.waiting(), 1u);
  store_.answer_all(&state_);
  EXPECT_EQ(user_.arrivals, 1);
  EXPECT_EQ(user_.path, "/admin/explain");
  EXPECT_EQ(user_.reached_on_arrival, Reach::kHere);
  EXPECT_FALSE(user_.allowed_on_arrival);
  EXPECT_EQ(store_.waiting(), 0u) << "an arrival is not read again";
  EXPECT_EQ(route_.counters().reads.get(), 1u);
  EXPECT_EQ(route_.counters().refused.get(), 0u);
  EXPECT_EQ(route_.in_flight(), 0u);
  EXPECT_EQ(route_.owner_core(key), std::nullopt);
  EXPECT_EQ(route_.received_on_core(), 3u);
}

TEST_F(SharedStoreRouteTest, NoStateInTimeMeansNoCappedAdIsAllowed) {
  const uint64_t key = caps::user_key("u2");
  user_.user_key = key;
  ASSERT_EQ(route_.reach({.user_key = key}, decision_request("{}"), response_).reach, Reach::kAway);
  store_.answer_all(nullptr);
  EXPECT_EQ(user_.reached_on_arrival, Reach::kHere);
  EXPECT_FALSE(user_.allowed_on_arrival) << "fail closed";
  EXPECT_EQ(route_.counters().refused.get(), 1u);
}

TEST_F(SharedStoreRouteTest, ARefusingStoreOrNothingCappedDecidesAtOnce) {
  const uint64_t key = caps::user_key("u3");
  const http::Request request = decision_request("{}");
  EXPECT_EQ(route_.reach({.user_key = key, .reads_caps = false}, request, response_).reach, Reach::kHere);
  EXPECT_EQ(store_.waiting(), 0u);
  EXPECT_EQ(route_.counters().refused.get(), 0u);
  store_.refuse = true;
  EXPECT_EQ(route_.reach({.user_key = key}, request, response_).reach, Reach::kHere);
  EXPECT_FALSE(response_.deferred());
  EXPECT_FALSE(route_.state().allows(key, kAd, kOnePerHour, kNowS));
  EXPECT_EQ(route_.counters().refused.get(), 1u);
  route_.hold_pending(key, kAd, kNowS);
  ASSERT_EQ(store_.pending.size(), 1u);
  EXPECT_EQ(store_.pending.front(), std::make_pair(key, kAd));
}

TEST_F(SharedStoreRouteTest, PastItsWaitsARequestIsDecidedWithoutTheState) {
  const uint64_t key = caps::user_key("u4");
  const http::Request request = decision_request("{}");
  std::array<http::Response, 4> waiting;
  for (http::Response& response : waiting) {
    EXPECT_EQ(route_.reach({.user_key = key}, request, response).reach, Reach::kAway);
  }
  EXPECT_EQ(route_.reach({.user_key = key}, request, response_).reach, Reach::kHere);
  EXPECT_EQ(route_.counters().refused.get(), 1u);
  store_.answer_all(&state_);
  EXPECT_EQ(user_.arrivals, 4);
}

}  // namespace
}  // namespace decision::user_state
