#pragma once
// Where one core's way to users' state is chosen, once (docs/architecture.md, "User
// state"): embedded mode reaches a user's caps and impressions on the core that owns them,
// cluster mode in the shared cap store. Everything above (the decision, explain and tracking
// handlers, the pacing rounds) is handed the interfaces built here and never learns which.
#include <memory>

#include "decision/endpoint/decision_ask.h"
#include "decision/explain/explain_ask.h"
#include "decision/pacing/goal_ledger.h"
#include "decision/pacing/slice_budget.h"
#include "decision/user_state/user_state_route.h"
#include "runtime/cross_core_asks.h"
#include "runtime/metric_source.h"
#include "runtime/reactor_channel.h"
#include "service/cluster/cluster_caps.h"
#include "service/process_view.h"
#include "tracking/impression_sink/impression_ask.h"
#include "tracking/impression_sink/impression_sink.h"
#include "tracking/impressions/impression_counter.h"
#include "tracking/state/core_state.h"

namespace service {

class StateRoutes {
 public:
  // cluster: this core's part of cluster mode, or null in embedded mode; ledger: where the
  // coordinating core shares goals in cluster mode (null elsewhere). Every argument
  // outlives the routes.
  StateRoutes(runtime::ReactorChannel& channel, ProcessView& view, tracking::state::CoreState& state,
              tracking::impressions::ImpressionCounter& local_impressions, ClusterCaps* cluster,
              decision::pacing::GoalLedger* ledger);
  ~StateRoutes();

  decision::user_state::UserStateRoute& decisions() { return *decisions_; }
  decision::user_state::UserStateRoute& explains() { return *explains_; }
  tracking::impression_sink::ImpressionSink& impressions() { return *impressions_; }
  decision::pacing::SliceBudget& slice_budget() { return *budget_; }

  // The families of what was chosen, for this core (CoreServices::register_metrics): the
  // decision route's and the sink's, labelled by where the state lives, and in cluster mode
  // the names it exported before them.
  void register_metrics(runtime::MetricRegistry& metrics, uint32_t core) const;
  // The cross-core asks' counters, by kind: zeros in cluster mode, so both modes list the
  // same families.
  const runtime::AskCounters& decision_asks() const { return *decision_asks_; }
  const runtime::AskCounters& explain_asks() const { return *explain_asks_; }
  const runtime::AskCounters& impression_asks() const { return *impression_asks_; }

 private:
  void wire_embedded(runtime::ReactorChannel& channel, ProcessView& view, tracking::state::CoreState& state,
                     tracking::impressions::ImpressionCounter& local_impressions);
  void wire_cluster(runtime::ReactorChannel& channel, const ProcessView& view, ClusterCaps& cluster);

  std::unique_ptr<decision::user_state::UserStateRoute> decisions_;
  std::unique_ptr<decision::user_state::UserStateRoute> explains_;
  std::unique_ptr<tracking::impression_sink::ImpressionSink> impressions_;
  std::unique_ptr<decision::pacing::SliceBudget> budget_;
  ClusterCaps* cluster_ = nullptr;
  // Embedded mode's asks, for their families; zeros in cluster mode.
  const runtime::AskCounters* decision_asks_ = nullptr;
  const runtime::AskCounters* explain_asks_ = nullptr;
  const runtime::AskCounters* impression_asks_ = nullptr;
};

}  // namespace service
