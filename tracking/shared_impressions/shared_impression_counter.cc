#include "tracking/shared_impressions/shared_impression_counter.h"

#include <xxhash.h>

#include "caps/user_key.h"
#include "runtime/check.h"

namespace tracking::shared_impressions {

class SharedImpressionCounter::InFlight final : public impressions::ImpressionNotice, public caps::ImpressionDone {
 public:
  explicit InFlight(SharedImpressionCounter& owner) : owner_(owner) {}
  void on_impression_counted(caps::ImpressionOutcome outcome) override { owner_.answered(*this, outcome); }

  bool again = false;  // applied again: its first line said unapplied

 private:
  SharedImpressionCounter& owner_;
};

SharedImpressionCounter::SharedImpressionCounter(uint32_t core, caps::SharedCapStore& store,
                                                 const impressions::AdCaps& ad_caps, events::EventLog& log,
                                                 runtime::TimerWheel& timers, const SharedImpressionSettings& settings)
    : core_(core), store_(store), ad_caps_(ad_caps), log_(log), timers_(timers), settings_(settings) {
  for (uint32_t i = 0; i < settings.max_in_flight; ++i) {
    pool_.push_back(std::make_unique<InFlight>(*this));
    free_.push_back(pool_.back().get());
  }
  timers_.schedule(retry_timer_, settings_.retry_interval_ms);
}

SharedImpressionCounter::~SharedImpressionCounter() = default;

void SharedImpressionCounter::count(const impressions::ImpressionNotice& notice) {
  // Stamped before anything can fail: the unapplied line carries the stamp, so that the
  // attempt sent again (now or after a restart) is recognised as this one.
  stamped_ = notice;
  stamped_.attempt = next_attempt();
  if (send(stamped_, /*again=*/false)) return;
  log_line(stamped_, /*duplicate=*/false, "unapplied");
  counters_.unapplied.add();
  keep(stamped_);
}

uint64_t SharedImpressionCounter::next_attempt() {
  const uint64_t n = ++attempts_;
  const uint64_t stamp = XXH3_64bits_withSeed(&n, sizeof(n), settings_.attempt_seed);
  return stamp != 0 ? stamp : 1;
}

void SharedImpressionCounter::keep(const impressions::ImpressionNotice& notice) {
  if (backlog_.size() >= settings_.max_backlog) {
    counters_.overflowed.add();  // still in the log as unapplied: the next start applies it
    return;
  }
  backlog_.push_back(notice);
  counters_.backlog.set(backlog_.size());
}

bool SharedImpressionCounter::send(const impressions::ImpressionNotice& notice, bool again) {
  if (free_.empty()) return false;
  InFlight* call = free_.back();
  static_cast<impressions::ImpressionNotice&>(*call) = notice;
  if (call->attempt == 0) call->attempt = next_attempt();  // a line written before stamps existed
  call->again = again;
  caps::ImpressionStep step;
  if (notice.has_user) step.user_key = caps::user_key(notice.user_id);
  step.impression_id = notice.token_id;
  step.ad_id = notice.ad_id;
  step.caps = step.user_key ? ad_caps_.caps_of(notice.ad_id) : std::span<const caps::CapRule>();
  step.now_s = notice.time_ms / 1000;
  step.issued_s = notice.issued_s;
  step.expires_s = notice.expires_s;
  step.attempt = call->attempt;
  if (!store_.count_impression(step, *call)) return false;
  free_.pop_back();
  return true;
}

void SharedImpressionCounter::answered(InFlight& call, caps::ImpressionOutcome outcome) {
  free_.push_back(&call);
  const bool repeat = outcome == caps::ImpressionOutcome::kRepeat;
  if (outcome == caps::ImpressionOutcome::kUnapplied) {
    if (!call.again) {
      log_line(call, /*duplicate=*/false, "unapplied");
      counters_.unapplied.add();
    }
    keep(call);
    return;
  }
  (repeat ? counters_.duplicates : counters_.counted).add();
  if (!repeat && delivery_ != nullptr) delivery_->counted(call.ad_id);
  if (call.again) counters_.reapplied.add();
  log_line(call, repeat, call.again ? "reapplied" : "");
}

void SharedImpressionCounter::log_line(const impressions::ImpressionNotice& notice, bool duplicate,
                                       std::string_view store) {
  events::EventRecord record;
  record.time_ms = notice.time_ms;
  record.kind = "impression";
  record.ad = notice.ad_id;
  record.creative = notice.creative_id;
  record.placement = notice.placement_id;
  record.request_id = notice.request_id;
  if (notice.has_user) record.user = notice.user_id;
  record.core = core_;
  record.tracking = true;
  record.duplicate = duplicate;
  record.issued_s = notice.issued_s;
  record.expires_s = notice.expires_s;
  record.token_id = notice.token_id;
  record.store = store;
  if (store == "unapplied") record.attempt = notice.attempt;
  log_.append(record);
}

void SharedImpressionCounter::retry() {
  // Oldest first, while calls are free; what cannot be sent waits for the next turn.
  while (!backlog_.empty() && send(backlog_.front(), /*again=*/true)) backlog_.pop_front();
  counters_.backlog.set(backlog_.size());
  timers_.schedule(retry_timer_, settings_.retry_interval_ms);
}

}  // namespace tracking::shared_impressions
