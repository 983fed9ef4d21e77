#include "decision/pacing/pacing_metrics.h"

#include <algorithm>
#include <optional>
#include <string>

namespace decision::pacing {

namespace {

void goals(const CorePacing& book, runtime::MetricSeriesList& out) {
  const std::span<const uint64_t> ids = book.ad_ids();
  const size_t labelled = std::min<size_t>(ids.size(), kLabelledGoals);
  for (size_t i = 0; i < labelled; ++i) out.add(static_cast<uint32_t>(i), {{"ad", std::to_string(ids[i])}});
}

template <typename Read>
uint64_t of_goal(const CorePacing& book, uint32_t key, Read read) {
  const std::span<const uint64_t> ids = book.ad_ids();
  if (key >= ids.size()) return 0;
  const std::optional<CoreGoalView> goal = book.view(ids[key]);
  return goal ? read(*goal) : 0;
}

uint64_t goal_of(const CorePacing& book, uint32_t key) {
  return of_goal(book, key, [](const CoreGoalView& g) { return g.goal; });
}
uint64_t delivered_of(const CorePacing& book, uint32_t key) {
  return of_goal(book, key, [](const CoreGoalView& g) { return g.delivered; });
}
uint64_t target_of(const CorePacing& book, uint32_t key) {
  return of_goal(book, key, [](const CoreGoalView& g) { return g.target; });
}
// In millionths: the table's values are integers.
uint64_t throttle_of(const CorePacing& book, uint32_t key) {
  return of_goal(book, key, [](const CoreGoalView& g) { return static_cast<uint64_t>(g.throttle * 1e6 + 0.5); });
}

constexpr GoalStatus kStatuses[] = {GoalStatus::kNotStarted, GoalStatus::kOnTrack, GoalStatus::kBehind,
                                    GoalStatus::kMet, GoalStatus::kEnded};

void statuses(const CorePacing&, runtime::MetricSeriesList& out) {
  for (GoalStatus status : kStatuses) {
    out.add(static_cast<uint32_t>(status), {{"status", goal_status_name(status)}});
  }
}

uint64_t goals_in_status(const CorePacing& book, uint32_t key) {
  uint64_t n = 0;
  for (uint64_t id : book.ad_ids()) {
    const std::optional<CoreGoalView> goal = book.view(id);
    if (goal && static_cast<uint32_t>(goal->status) == key) ++n;
  }
  return n;
}

constexpr runtime::Metric<CorePacing> per_goal(std::string_view name, std::string_view help,
                                               uint64_t (*read)(const CorePacing&, uint32_t), double unit = 0) {
  return {.name = name, .type = runtime::MetricType::kGauge, .help = help, .scope = runtime::MetricScope::kAnswering,
          .series = &goals, .read = read, .unit = unit};
}

constexpr runtime::Metric<CorePacing> kPacingFamilies[] = {
    per_goal("decisiond_pacing_goal_impressions",
             "Delivery goal of each paced ad (the first 100 by ad id), in counted impressions over its flight.",
             &goal_of),
    per_goal("decisiond_pacing_delivered_impressions",
             "Impressions counted toward each paced ad's goal on this node, as of the last pacing round.",
             &delivered_of),
    per_goal("decisiond_pacing_target_impressions",
             "Impressions each paced ad should have counted by the end of the current pacing slice.", &target_of),
    per_goal("decisiond_pacing_throttle",
             "Share of each paced ad's opportunities pacing lets through in the current slice (1: every one).",
             &throttle_of, 1e-6),
    {.name = "decisiond_pacing_goals", .type = runtime::MetricType::kGauge,
     .help = "Ads with a delivery goal in the catalog in force, by pacing status as of the last round.",
     .scope = runtime::MetricScope::kAnswering, .series = &statuses, .read = &goals_in_status},
};

}  // namespace

constinit const runtime::MetricTable<CorePacing> kPacingMetricTable = kPacingFamilies;

}  // namespace decision::pacing
