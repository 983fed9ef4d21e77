#include "service/user_state/state_routes.h"

#include "decision/pacing/ledger_budget.h"
#include "decision/user_state/owner_core_route.h"
#include "decision/user_state/route_metrics.h"
#include "decision/user_state/shared_store_route.h"
#include "tracking/impression_sink/impression_sink_metrics.h"
#include "tracking/impression_sink/owner_core_impressions.h"
#include "tracking/impression_sink/shared_store_impressions.h"
#include "tracking/shared_impressions/shared_impression_metrics.h"

namespace service {

namespace {
using decision::endpoint::DecisionAsk;
using decision::explain::ExplainAsk;
using decision::user_state::OwnerCoreRoute;

constexpr std::string_view kDecisionPath = "/v1/decision";
constexpr std::string_view kExplainPath = "/admin/explain";
constexpr std::string_view kEmbeddedLabel = R"(state="core")";
constexpr std::string_view kClusterLabel = R"(state="cluster")";

// Explains are an operator's tool: a handful at once (docs/explain.md), never more than
// the decisions' bound.
uint32_t explain_bound(const ProcessView& view) {
  return std::min(ExplainAsk::kPerPeer, view.config.max_cross_core_asks);
}

const runtime::AskCounters kNoAsks;
}  // namespace

StateRoutes::StateRoutes(runtime::ReactorChannel& channel, ProcessView& view, tracking::state::CoreState& state,
                         tracking::impressions::ImpressionCounter& local_impressions, ClusterCaps* cluster,
                         decision::pacing::GoalLedger* ledger)
    : cluster_(cluster) {
  if (cluster != nullptr) {
    wire_cluster(channel, view, *cluster);
  } else {
    wire_embedded(channel, view, state, local_impressions);
  }
  // Only the coordinating core of a cluster-mode node has a ledger; elsewhere a plan is
  // spent as planned (and no other core plans at all).
  if (ledger != nullptr) {
    budget_ = std::make_unique<decision::pacing::LedgerBudget>(*ledger, view.config.cluster.node_id);
  } else {
    budget_ = std::make_unique<decision::pacing::NodeBudget>();
  }
}

StateRoutes::~StateRoutes() = default;

void StateRoutes::wire_embedded(runtime::ReactorChannel& channel, ProcessView& view,
                                tracking::state::CoreState& state,
                                tracking::impressions::ImpressionCounter& local_impressions) {
  const uint32_t core = channel.core();
  const uint32_t bound = view.config.max_cross_core_asks;
  auto decisions = std::make_unique<OwnerCoreRoute<DecisionAsk>>(kDecisionPath, *state.caps, core, &channel,
                                                                 &view.decision_asks, bound);
  auto explains = std::make_unique<OwnerCoreRoute<ExplainAsk>>(kExplainPath, *state.caps, core, &channel,
                                                               &view.explain_asks, explain_bound(view));
  auto impressions = std::make_unique<tracking::impression_sink::OwnerCoreImpressions>(
      local_impressions, core, &channel, &view.impression_asks, bound);
  decision_asks_ = &decisions->ask_counters();
  explain_asks_ = &explains->ask_counters();
  impression_asks_ = &impressions->ask_counters();
  decisions_ = std::move(decisions);
  explains_ = std::move(explains);
  impressions_ = std::move(impressions);
}

void StateRoutes::wire_cluster(runtime::ReactorChannel& channel, const ProcessView& view, ClusterCaps& cluster) {
  const uint32_t core = channel.core();
  const uint32_t bound = view.config.max_cross_core_asks;
  decisions_ = std::make_unique<decision::user_state::SharedStoreRoute>(kDecisionPath, *cluster.store(), core, bound);
  explains_ = std::make_unique<decision::user_state::SharedStoreRoute>(kExplainPath, *cluster.store(), core,
                                                                       ExplainAsk::kPerPeer);
  impressions_ = std::make_unique<tracking::impression_sink::SharedStoreImpressions>(*cluster.impressions(), bound);
  decision_asks_ = &kNoAsks;
  explain_asks_ = &kNoAsks;
  impression_asks_ = &kNoAsks;
}

void StateRoutes::register_metrics(runtime::MetricRegistry& metrics, uint32_t core) const {
  const std::string_view label = cluster_ != nullptr ? kClusterLabel : kEmbeddedLabel;
  metrics.add(core, decision::user_state::kRouteMetricTable, decisions_->counters(), label);
  metrics.add(core, tracking::impression_sink::kImpressionSinkMetricTable, *impressions_, label);
  if (cluster_ != nullptr) {
    metrics.add(core, decision::user_state::kRouteAliasMetricTable, decisions_->counters());
    metrics.add(core, tracking::shared_impressions::kSharedImpressionAliasMetricTable,
                cluster_->impressions()->counters());
  }
}

}  // namespace service
