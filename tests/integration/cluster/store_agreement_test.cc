// The two cap stores give the same answers (docs/caps.md "The stores"): one random sequence
// of impressions, pending serves and their impressions, applied to the in-process partition
// and, through a real Redis Cluster, to the Redis store (its function library is the same
// arithmetic written in Lua); after every step the counts, the pending serves and the
// verdict of every cap are read back from both and compared.
#include <functional>
#include <memory>
#include <random>

#include "caps/cap_partition.h"
#include "caps/redis_store/redis_cap_store.h"
#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "redis_cluster/cluster_client.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {
namespace {

// Stops the reactor's loop when a condition holds or time is up, checked every tick.
class Until final : public runtime::Timer {
 public:
  Until(runtime::Reactor& reactor, std::function<bool()> done, int64_t timeout_ms)
      : reactor_(reactor), done_(std::move(done)), give_up_ns_(reactor.clock().monotonic_ns() + timeout_ms * 1'000'000) {
    reactor_.timers().schedule(*this, 1);
  }
  ~Until() override { reactor_.timers().cancel(*this); }
  void on_expire() override {
    if (done_() || reactor_.clock().monotonic_ns() >= give_up_ns_) {
      reactor_.request_stop();
      return;
    }
    reactor_.timers().schedule(*this, 1);
  }

 private:
  runtime::Reactor& reactor_;
  std::function<bool()> done_;
  int64_t give_up_ns_;
};

runtime::ReactorConfig small_reactor() {
  runtime::ReactorConfig c;
  c.ring_entries = 256;
  c.recv_buffer_count = 64;
  c.recv_buffer_bytes = 16384;
  c.max_sockets = 64;
  c.tick_ms = 5;
  return c;
}

struct Outcome final : caps::ImpressionDone {
  void on_impression_counted(caps::ImpressionOutcome o) override {
    outcome = o;
    done = true;
  }
  bool done = false;
  caps::ImpressionOutcome outcome = caps::ImpressionOutcome::kUnapplied;
};

// Compares, inside the store's answer (its state is valid there only), with the partition.
struct Comparison final : caps::CapReadDone {
  void on_caps_read(const caps::CapReader* state) override {
    done = true;
    if (state == nullptr) {
      ADD_FAILURE() << "the store did not answer";
      return;
    }
    check(*state);
  }
  std::function<void(const caps::CapReader&)> check;
  bool done = false;
};

const caps::CapRule kAd1[] = {{3, 3600}, {2, 60}};     // exact caps
const caps::CapRule kAd2[] = {{10, 600}, {7, 86400}};  // bucketed caps
std::span<const caps::CapRule> caps_of(uint64_t ad) { return ad == 1 ? std::span(kAd1) : std::span(kAd2); }

class StoreAgreement : public ::testing::Test {
 protected:
  static constexpr int64_t kServeWindowS = 30;

  StoreAgreement() : mailbox_(1), reactor_(0, mailbox_, runtime::SystemClock::instance(), small_reactor()) {}
  void SetUp() override {
    ASSERT_TRUE(redis_.ok()) << redis_.error();
    ASSERT_TRUE(reactor_.init().ok());
    redis_cluster::ClusterConfig config;
    auto seeds = redis_cluster::parse_seed_list(redis_.seed_url());
    ASSERT_TRUE(seeds.ok()) << seeds.status();
    config.seeds = *seeds;
    client_ = std::make_unique<redis_cluster::ClusterClient>(reactor_, config);
    caps::redis_store::RedisCapStoreSettings settings;
    settings.timeout_ns = 2'000'000'000;
    settings.serve_window_s = kServeWindowS;
    store_ = std::make_unique<caps::redis_store::RedisCapStore>(*client_, reactor_.clock(), settings, kept_);
    client_->start();
    run_until([&] { return client_->state() == redis_cluster::ClusterState::kUp; }, 10000);
    ASSERT_EQ(client_->state(), redis_cluster::ClusterState::kUp);
    partition_.set_serve_window(kServeWindowS);
  }
  void TearDown() override {
    if (client_ == nullptr) return;
    client_->stop();
    run_until([&] { return client_->quiescent(); }, 2000);
  }
  bool run_until(std::function<bool()> done, int64_t timeout_ms) {
    Until until(reactor_, done, timeout_ms);
    reactor_.run();
    return done();
  }

  RedisCluster redis_;
  runtime::Mailbox mailbox_;
  runtime::Reactor reactor_;
  std::unique_ptr<redis_cluster::ClusterClient> client_;
  caps::KeptImpressions kept_;  // none: the store's state alone is compared
  std::unique_ptr<caps::redis_store::RedisCapStore> store_;
  caps::CapPartition partition_;
};

TEST_F(StoreAgreement, ARandomSequenceGivesTheSameCountsPendingAndVerdictsOnBothStores) {
  std::mt19937_64 random(20261126);
  const uint64_t users[] = {caps::user_key("agree-a"), caps::user_key("agree-b"), caps::user_key("agree-c")};
  int64_t now_s = reactor_.clock().wall_s();
  uint64_t next_identity = 1;
  for (int step = 0; step < 400; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    now_s += static_cast<int64_t>(random() % 25);  // bucketed windows slide, exact ones lapse
    const uint64_t user = users[random() % 3];
    const uint64_t ad = 1 + random() % 2;
    const uint64_t op = random() % 10;
    if (op < 5) {  // an impression, of a serve issued up to 40 s before
      const int64_t issued_s = now_s - static_cast<int64_t>(random() % 40);
      partition_.record(user, ad, caps_of(ad), now_s);
      partition_.clear_pending(user, ad, issued_s, now_s);
      caps::ImpressionStep impression{user, next_identity++, ad, caps_of(ad), now_s, issued_s, now_s + 3600};
      Outcome outcome;
      ASSERT_TRUE(store_->count_impression(impression, outcome));
      run_until([&] { return outcome.done; }, 5000);
      ASSERT_EQ(outcome.outcome, caps::ImpressionOutcome::kCounted);
    } else if (op < 8) {  // a serve, pending
      partition_.add_pending(user, ad, now_s);
      store_->add_pending(user, ad, now_s);
    }
    Comparison comparison;
    comparison.check = [&](const caps::CapReader& redis) {
      for (uint64_t a : {uint64_t{1}, uint64_t{2}}) {
        uint64_t expected[2] = {}, got[2] = {};
        partition_.count(user, a, caps_of(a), now_s, expected);
        redis.count(user, a, caps_of(a), now_s, got);
        EXPECT_EQ(got[0], expected[0]) << "ad " << a << " cap 0";
        EXPECT_EQ(got[1], expected[1]) << "ad " << a << " cap 1";
        EXPECT_EQ(redis.pending(user, a, now_s), partition_.pending(user, a, now_s)) << "ad " << a;
        EXPECT_EQ(redis.allows(user, a, caps_of(a), now_s), partition_.allows(user, a, caps_of(a), now_s)) << "ad " << a;
      }
    };
    // The pending write is not waited for, but it went out before the read on the same
    // connection (one user, one slot, one primary): the read sees it.
    ASSERT_TRUE(store_->read(user, comparison));
    run_until([&] { return comparison.done; }, 5000);
    ASSERT_TRUE(comparison.done);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace integration
