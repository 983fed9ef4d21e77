#include "decision/pacing/redis_ledger/redis_goal_ledger.h"

#include <array>

#include "decision/pacing/redis_ledger/pacing_library.h"

namespace decision::pacing::redis_ledger {

class RedisGoalLedger::LeaseCall final : public redis_cluster::Call {
 public:
  explicit LeaseCall(RedisGoalLedger& owner) : owner_(owner) {}
  void on_reply(const redis_cluster::Reply& reply) override {
    if (reply.kind() != redis_cluster::Reply::Kind::kArray || reply.size() != 2 || reply.at(0).integer() < 0 ||
        reply.at(1).integer() < 0) {
      owner_.finish(*this, nullptr);
      return;
    }
    const LeaseGrant granted{static_cast<uint64_t>(reply.at(0).integer()), static_cast<uint64_t>(reply.at(1).integer())};
    owner_.finish(*this, &granted);
  }
  void on_failed(redis_cluster::CallFailure) override { owner_.finish(*this, nullptr); }

  LeaseRequest request;
  LeaseDone* done = nullptr;

 private:
  RedisGoalLedger& owner_;
};

RedisGoalLedger::RedisGoalLedger(redis_cluster::ClusterClient& client, const runtime::Clock& clock, int64_t timeout_ns)
    : client_(client), clock_(clock), timeout_ns_(timeout_ns) {
  client_.require_library(std::string(pacing_library()));
}

RedisGoalLedger::~RedisGoalLedger() = default;

bool RedisGoalLedger::lease(const LeaseRequest& request, LeaseDone& done) {
  // One round's calls at a time, as many as the catalog has goals: made once, then reused.
  if (free_.empty()) {
    calls_.push_back(std::make_unique<LeaseCall>(*this));
    free_.push_back(calls_.back().get());
  }
  LeaseCall& call = *free_.back();
  call.request = request;
  call.done = &done;
  const std::string key = pace_key(request.ad_id);
  const std::array<std::string, kPaceArguments> numbers = pace_arguments(request);
  const std::array<std::string_view, 4 + kPaceArguments> args = {
      "FCALL",    kPaceFunction, "1",        key,        numbers[0], numbers[1], numbers[2],
      numbers[3], numbers[4],    numbers[5], numbers[6], numbers[7], numbers[8], numbers[9]};
  if (!client_.call(key, args, clock_.monotonic_ns() + timeout_ns_, call)) {
    counters_.failures.add();
    return false;
  }
  free_.pop_back();
  return true;
}

void RedisGoalLedger::finish(LeaseCall& call, const LeaseGrant* granted) {
  (granted != nullptr ? counters_.leases : counters_.failures).add();
  LeaseDone& done = *call.done;
  const LeaseRequest request = call.request;
  free_.push_back(&call);
  done.on_lease(request, granted);
}

}  // namespace decision::pacing::redis_ledger
