#pragma once
// The soak's one source of chance (issue 29 point 5): a seed, read from
// DECISIOND_SOAK_SEED or taken from the clock and printed first, from which the fault
// schedule and every client thread's choices (which user, which node, how an impression
// URL is repeated) are drawn. The same seed replays the same schedule and the same
// choices; what the machine's timing does with them (which request meets which fault)
// may differ between two runs.
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace integration {

struct SoakSettings {
  uint64_t seed = 0;
  int64_t duration_ms = 0;  // of traffic; faults start within it
  // DECISIOND_SOAK_SEED (default: the clock) and DECISIOND_SOAK_SECONDS (default: the
  // short run of make test).
  static SoakSettings from_environment();
};

inline constexpr int64_t kShortSoakSeconds = 20;

enum class FaultKind : uint8_t {
  kPrimaryKilled,    // a Redis primary SIGKILLed, its replica promoted, then it restarts as a replica
  kPrimaryPaused,    // a Redis primary SIGSTOPped, then SIGCONTed (a long pause fails it over)
  kNodeKilled,       // a decisiond node SIGKILLed, started again on its state directory
  kNodeTerminated,   // a decisiond node stopped with SIGTERM, started again on its state directory
};
inline constexpr int kFaultKinds = 4;
std::string_view fault_name(FaultKind kind);

struct PlannedFault {
  int64_t gap_ms = 0;  // traffic alone before it, after the previous fault has healed
  FaultKind kind = FaultKind::kPrimaryKilled;
  uint32_t target = 0;  // a hash slot (modulo 16384) whose primary is hit, or a node (modulo their count)
  int64_t hold_ms = 0;  // how long a primary stays paused or dead before it is resumed or restarted
};

// More faults than a run of duration_ms can carry out: the executor stops at the deadline.
std::vector<PlannedFault> plan_faults(std::mt19937_64& random, int64_t duration_ms);

// The generator of client thread `thread`, derived from the seed so that threads do not
// share one (their interleaving would make the draws differ between runs).
std::mt19937_64 thread_random(uint64_t seed, uint32_t thread);

}  // namespace integration
