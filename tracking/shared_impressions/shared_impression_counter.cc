#include "tracking/shared_impressions/shared_impression_counter.h"

#include <xxhash.h>

#include <algorithm>

#include "caps/user_key.h"
#include "runtime/check.h"

namespace tracking::shared_impressions {

class SharedImpressionCounter::InFlight final : public impressions::ImpressionNotice,
                                               public caps::ImpressionDone,
                                               public runtime::LinesWrittenWaiter {
 public:
  explicit InFlight(SharedImpressionCounter& owner) : owner_(owner) {}
  void on_impression_counted(caps::ImpressionOutcome outcome) override { owner_.answered(*this, outcome); }
  void lines_written() override { owner_.written_ahead(*this); }

  bool again = false;  // applied again: its first line said unapplied
  impressions::ImpressionLogged* logged = nullptr;  // told once the line is written

 private:
  SharedImpressionCounter& owner_;
};

SharedImpressionCounter::SharedImpressionCounter(uint32_t core, caps::SharedCapStore& store,
                                                 caps::KeptImpressions& kept, const impressions::AdCaps& ad_caps,
                                                 events::EventLog& log, runtime::FileIo& io,
                                                 runtime::TimerWheel& timers, const SharedImpressionSettings& settings)
    : core_(core),
      store_(store),
      kept_(kept),
      ad_caps_(ad_caps),
      log_(log),
      timers_(timers),
      settings_(settings),
      written_(log.writer(), io, settings.max_in_flight) {
  for (uint32_t i = 0; i < settings.max_in_flight; ++i) {
    pool_.push_back(std::make_unique<InFlight>(*this));
    free_.push_back(pool_.back().get());
  }
  timers_.schedule(retry_timer_, settings_.retry_interval_ms);
}

SharedImpressionCounter::~SharedImpressionCounter() = default;

bool SharedImpressionCounter::count(const impressions::ImpressionNotice& notice,
                                    impressions::ImpressionLogged* logged) {
  // Stamped before anything can fail: the unapplied line carries the stamp, so that the
  // attempt sent again (now or after a restart) is recognised as this one.
  stamped_ = notice;
  stamped_.attempt = next_attempt();
  log_line(stamped_, /*duplicate=*/false, "unapplied");
  // Without someone to tell, the reply cannot wait for the store: it leaves now, kept.
  if (logged != nullptr) {
    if (InFlight* call = take_call(stamped_, /*again=*/false, logged); call != nullptr) {
      written_.hold_until(written_.mark(), *call);
      return false;
    }
  }
  counters_.unapplied.add();
  keep(stamped_);
  return true;
}

void SharedImpressionCounter::written_ahead(InFlight& call) {
  if (ask_store(call)) return;
  // The store's client at its bound: kept like one it did not take in time.
  counters_.unapplied.add();
  keep(call);
  impressions::ImpressionLogged* logged = call.logged;
  give_back(call);
  if (logged != nullptr) logged->impression_logged();
}

uint64_t SharedImpressionCounter::next_attempt() {
  const uint64_t n = ++attempts_;
  const uint64_t stamp = XXH3_64bits_withSeed(&n, sizeof(n), settings_.attempt_seed);
  return stamp != 0 ? stamp : 1;
}

void SharedImpressionCounter::keep(const impressions::ImpressionNotice& notice) { to_backlog(notice, false); }

void SharedImpressionCounter::keep_again(const impressions::ImpressionNotice& notice) { to_backlog(notice, true); }

void SharedImpressionCounter::to_backlog(const impressions::ImpressionNotice& notice, bool kept_already) {
  if (backlog_.size() >= settings_.max_backlog) {
    counters_.overflowed.add();  // still in the log as unapplied: the next start applies it
    if (kept_already) forget_kept(notice);
    return;
  }
  if (!kept_already && notice.has_user) kept_.add(caps::user_key(notice.user_id), notice.ad_id);
  backlog_.push_back(notice);
  counters_.backlog.set(backlog_.size());
}

void SharedImpressionCounter::forget_kept(const impressions::ImpressionNotice& notice) {
  if (notice.has_user) kept_.remove(caps::user_key(notice.user_id), notice.ad_id);
}

SharedImpressionCounter::InFlight* SharedImpressionCounter::take_call(const impressions::ImpressionNotice& notice,
                                                                      bool again,
                                                                      impressions::ImpressionLogged* logged) {
  if (free_.empty()) return nullptr;
  InFlight* call = free_.back();
  free_.pop_back();
  static_cast<impressions::ImpressionNotice&>(*call) = notice;
  if (call->attempt == 0) call->attempt = next_attempt();  // a line written before stamps existed
  call->again = again;
  call->logged = logged;
  return call;
}

bool SharedImpressionCounter::ask_store(InFlight& call) {
  caps::ImpressionStep step;
  if (call.has_user) step.user_key = caps::user_key(call.user_id);
  step.impression_id = call.token_id;
  step.ad_id = call.ad_id;
  step.caps = step.user_key ? ad_caps_.caps_of(call.ad_id) : std::span<const caps::CapRule>();
  step.now_s = call.time_ms / 1000;
  step.issued_s = call.issued_s;
  step.expires_s = call.expires_s;
  step.attempt = call.attempt;
  if (!store_.count_impression(step, call)) return false;
  if (call.again) ++again_in_flight_;
  return true;
}

void SharedImpressionCounter::give_back(InFlight& call) {
  call.logged = nullptr;
  free_.push_back(&call);
}

void SharedImpressionCounter::answered(InFlight& call, caps::ImpressionOutcome outcome) {
  if (call.again) --again_in_flight_;
  const bool repeat = outcome == caps::ImpressionOutcome::kRepeat;
  if (outcome == caps::ImpressionOutcome::kUnapplied) {
    // Its unapplied line is written already (ahead of the first attempt).
    if (!call.again) {
      counters_.unapplied.add();
      keep(call);
    } else {
      keep_again(call);
    }
  } else {
    (repeat ? counters_.duplicates : counters_.counted).add();
    if (!repeat && delivery_ != nullptr) delivery_->counted(call.ad_id);
    if (call.again) {
      counters_.reapplied.add();
      forget_kept(call);
    }
    log_line(call, repeat, "reapplied");
  }
  impressions::ImpressionLogged* logged = call.logged;
  give_back(call);
  // After the line: the reply it acknowledges leaves with it.
  if (logged != nullptr) logged->impression_logged();
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
  // Both lines carry the stamp: a reapplied line settles the unapplied attempt of the same
  // stamp, so two calls kept for one identity are each settled once (unapplied_scan.h).
  if (!store.empty()) record.attempt = notice.attempt;
  log_.append(record);
}

void SharedImpressionCounter::retry() {
  // Oldest first, while calls are free and at most half of them are taken by kept ones: an
  // impression kept for a primary that does not answer holds its call until its deadline,
  // and a backlog sent whole would leave new impressions (of users on healthy primaries too)
  // without a call for that long, every retry. What cannot be sent waits for the next turn.
  const uint32_t again_bound = std::max<uint32_t>(1, settings_.max_in_flight / 2);
  while (!backlog_.empty() && again_in_flight_ < again_bound) {
    InFlight* call = take_call(backlog_.front(), /*again=*/true, /*logged=*/nullptr);
    if (call == nullptr) break;
    if (!ask_store(*call)) {
      give_back(*call);
      break;
    }
    backlog_.pop_front();
  }
  counters_.backlog.set(backlog_.size());
  timers_.schedule(retry_timer_, settings_.retry_interval_ms);
}

}  // namespace tracking::shared_impressions
