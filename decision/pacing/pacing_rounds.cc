#include "decision/pacing/pacing_rounds.h"

#include <algorithm>

#include "runtime/check.h"

namespace decision::pacing {

namespace {
constexpr uint32_t kCoordinator = 0;
// A queue that refused a round's message is tried again this soon.
constexpr int64_t kResendDelayMs = 1;
// Every allotment is kept for each core (a pool of this many is enough).
constexpr uint32_t kPoolSize = 2;
}  // namespace

PacingRounds::PacingRounds(CorePacing& book, const GoalSource& goals, runtime::TimerWheel& timers,
                           const runtime::Clock& clock, uint32_t core, uint32_t cores, int64_t interval_s,
                           SliceBudget& budget, const PacingLinks& links)
    : book_(book),
      goals_(goals),
      timers_(timers),
      clock_(clock),
      core_(core),
      cores_(cores),
      interval_s_(std::max<int64_t>(1, interval_s)),
      asks_(*this, links.channel, links.peers, kPoolSize * std::max<uint32_t>(1, cores)),
      node_(cores),
      owed_(cores, Owed::kNothing),
      budget_(budget),
      watcher_(links.watcher) {}

PacingRounds::~PacingRounds() {
  if (armed()) timers_.cancel(*this);
}

void PacingRounds::start() {
  if (core_ != kCoordinator || started_) return;
  started_ = true;
  // From the loop, not here: start() runs while the cores are set up, and a core may ask
  // another only once every core has joined (runtime/core_group.h).
  timers_.schedule(*this, 1);
}

void PacingRounds::stop() {
  stopped_ = true;
  if (armed()) timers_.cancel(*this);
}

void PacingRounds::allot_new_goals() {
  // Before the first round, that round plans every goal.
  if (core_ != kCoordinator || !started_ || stopped_ || round_ == 0) return;
  if (round_open_ || resend_due_) {
    new_goals_waiting_ = true;
    return;
  }
  begin_new_goals_round();
}

void PacingRounds::schedule_next() {
  if (stopped_) return;
  const int64_t now_ms = clock_.wall_ms();
  const int64_t interval_ms = interval_s_ * 1000;
  const int64_t next_boundary_ms = (now_ms / interval_ms + 1) * interval_ms;
  timers_.schedule(*this, std::max<int64_t>(1, next_boundary_ms - now_ms));
}

void PacingRounds::on_expire() {
  if (resend_due_) {
    resend_due_ = false;
    send_pending();
    return;
  }
  // A slice boundary (or the first round).
  if (round_open_) {
    boundary_waiting_ = true;
    return;
  }
  begin_round();
}

void PacingRounds::begin_round() {
  if (stopped_) return;
  round_open_ = true;
  kind_ = RoundKind::kSlice;
  ++round_;
  tallies_awaited_ = cores_;
  book_.take_tallies(own_tallies_);
  for (uint32_t core = 0; core < cores_; ++core) owed_[core] = core == core_ ? Owed::kNothing : Owed::kTallyAsk;
  tally_in(core_, own_tallies_);
  send_pending();
}

void PacingRounds::begin_new_goals_round() {
  if (stopped_) return;
  planned_.clear();
  for (const PacedGoal& goal : goals_.paced_goals()) {
    const std::optional<CoreGoalView> held = book_.view(goal.ad_id);
    if (!held || !held->allotted) planned_.push_back(goal);
  }
  if (planned_.empty()) {
    schedule_next();
    return;
  }
  // No tallies: what the cores saw stays with them for the slice's round.
  round_open_ = true;
  kind_ = RoundKind::kNewGoals;
  ++round_;
  tallies_awaited_ = 0;
  plan_planned();
}

void PacingRounds::send_pending() {
  bool refused = false;
  for (uint32_t core = 0; core < cores_; ++core) {
    if (owed_[core] == Owed::kNothing) continue;
    PacingAsk* ask = asks_.take(core);
    if (ask == nullptr) {
      refused = true;
      continue;
    }
    ask->round = round_;
    ask->core = core;
    if (owed_[core] == Owed::kTallyAsk) {
      ask->step = PacingAsk::Step::kTally;
    } else {
      ask->step = kind_ == RoundKind::kSlice ? PacingAsk::Step::kAllot : PacingAsk::Step::kAddAllotments;
      ask->allotments.swap(allotments_[core]);
    }
    if (!asks_.send(ask)) {
      if (ask->step != PacingAsk::Step::kTally) ask->allotments.swap(allotments_[core]);
      refused = true;
      continue;
    }
    owed_[core] = Owed::kNothing;
  }
  if (refused) {
    resend_due_ = true;
    timers_.schedule(*this, kResendDelayMs);
    return;
  }
  if (round_open_) {
    // Waiting for the budget (a ledger's answers): the next boundary may come meanwhile (and then waits).
    if (tallies_awaited_ == 0) schedule_next();
    return;
  }
  if (boundary_waiting_) {
    boundary_waiting_ = false;
    new_goals_waiting_ = false;  // the slice's round plans every goal
    begin_round();
  } else if (new_goals_waiting_) {
    new_goals_waiting_ = false;
    begin_new_goals_round();
  } else {
    schedule_next();
  }
}

void PacingRounds::serve_ask(PacingAsk& ask, uint32_t) {
  switch (ask.step) {
    case PacingAsk::Step::kTally:
      book_.take_tallies(ask.tallies);
      return;
    case PacingAsk::Step::kAllot:
      book_.apply(ask.allotments);
      break;
    case PacingAsk::Step::kAddAllotments:
      book_.add(ask.allotments);
      break;
  }
  if (watcher_ != nullptr) watcher_->allotments_applied();
}

bool PacingRounds::finish_ask(PacingAsk& ask) {
  if (ask.step == PacingAsk::Step::kTally && ask.round == round_ && round_open_) tally_in(ask.core, ask.tallies);
  return true;
}

void PacingRounds::tally_in(uint32_t core, std::span<const CoreTally> tallies) {
  node_.add(core, tallies);
  if (--tallies_awaited_ == 0) plan_round();
}

void PacingRounds::plan_round() {
  const std::span<const PacedGoal> goals = goals_.paced_goals();
  planned_.assign(goals.begin(), goals.end());
  plan_planned();
}

void PacingRounds::plan_planned() {
  const int64_t now_s = clock_.wall_s();
  const int64_t slice_end_s = (now_s / interval_s_ + 1) * interval_s_;
  node_.plan(planned_, now_s, slice_end_s, allotments_);
  // Every node agrees on the slice's id: its start on the wall clock.
  const NodeSlicePlan plan{.node = node_,
                       .goals = planned_,
                       .allotments = allotments_,
                       .slice_id = clock_.wall_s() / interval_s_ * interval_s_,
                       .interval_s = interval_s_};
  budget_.settle(plan, *this);
}

void PacingRounds::allot() {
  if (kind_ == RoundKind::kSlice) {
    book_.apply(allotments_[core_]);
  } else {
    book_.add(allotments_[core_]);
  }
  for (uint32_t core = 0; core < cores_; ++core) owed_[core] = core == core_ ? Owed::kNothing : Owed::kAllotments;
  round_open_ = false;
  allotted_here();
  send_pending();
}

void PacingRounds::allotted_here() {
  if (watcher_ != nullptr) watcher_->allotments_applied();
}

}  // namespace decision::pacing
