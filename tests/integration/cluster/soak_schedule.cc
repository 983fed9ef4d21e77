#include "tests/integration/cluster/soak_schedule.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace integration {

namespace {

// Long enough for traffic to reach the state a fault then disturbs (users at their caps,
// impressions in flight), short enough that a 20 s run sees several faults.
constexpr int64_t kGapMinMs = 500;
constexpr int64_t kGapMaxMs = 2500;
// Pauses on both sides of the cluster's node timeout (1 s in the fixture): shorter ones are
// a slow primary, longer ones fail it over while it still holds connections.
constexpr int64_t kPauseMinMs = 200;
constexpr int64_t kPauseMaxMs = 2500;
constexpr int64_t kDeadMinMs = 0;
constexpr int64_t kDeadMaxMs = 2000;

int64_t uniform(std::mt19937_64& random, int64_t low, int64_t high) {
  return std::uniform_int_distribution<int64_t>(low, high)(random);
}

std::optional<int64_t> env_integer(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return value;
}

}  // namespace

SoakSettings SoakSettings::from_environment() {
  SoakSettings settings;
  const auto seed = env_integer("DECISIOND_SOAK_SEED");
  settings.seed = seed ? static_cast<uint64_t>(*seed)
                       : static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) %
                             1000000000ULL;
  const auto seconds = env_integer("DECISIOND_SOAK_SECONDS");
  settings.duration_ms = 1000 * (seconds && *seconds > 0 ? *seconds : kShortSoakSeconds);
  return settings;
}

std::string_view fault_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::kPrimaryKilled: return "primary_killed";
    case FaultKind::kPrimaryPaused: return "primary_paused";
    case FaultKind::kNodeKilled: return "node_killed";
    case FaultKind::kNodeTerminated: return "node_terminated";
  }
  return "unknown";
}

std::vector<PlannedFault> plan_faults(std::mt19937_64& random, int64_t duration_ms) {
  std::vector<PlannedFault> plan;
  for (int64_t planned_ms = 0; planned_ms < duration_ms; ) {
    PlannedFault fault;
    fault.gap_ms = uniform(random, kGapMinMs, kGapMaxMs);
    fault.kind = static_cast<FaultKind>(uniform(random, 0, kFaultKinds - 1));
    fault.target = static_cast<uint32_t>(uniform(random, 0, 1 << 20));
    fault.hold_ms = fault.kind == FaultKind::kPrimaryPaused ? uniform(random, kPauseMinMs, kPauseMaxMs)
                                                            : uniform(random, kDeadMinMs, kDeadMaxMs);
    planned_ms += fault.gap_ms + fault.hold_ms;
    plan.push_back(fault);
  }
  return plan;
}

std::mt19937_64 thread_random(uint64_t seed, uint32_t thread) {
  std::seed_seq sequence{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), thread + 1};
  return std::mt19937_64(sequence);
}

}  // namespace integration
