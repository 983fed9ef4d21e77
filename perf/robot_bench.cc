// The robot check (invalid_traffic/robot_matcher.h) on the agents a decision or a tracking
// call carries: once per request, so what it costs is added to each.
#include <benchmark/benchmark.h>

#include "invalid_traffic/robot_matcher.h"
#include "invalid_traffic/robot_verdicts.h"
#include "perf/allocation_counter.h"

namespace {

constexpr const char* kBrowser =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1";
constexpr const char* kPlayer = "MyVideoApp/3.2 (Linux;Android 14) ExoPlayerLib/2.19.1";
constexpr const char* kRobot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

void robot_check(benchmark::State& state, const char* agent) {
  const invalid_traffic::RobotMatcher& matcher = invalid_traffic::RobotMatcher::instance();
  benchmark::DoNotOptimize(matcher.is_robot(agent));  // warm: the set's DFA states for this agent
  const perf::AllocationWatch allocations;
  for (auto _ : state) benchmark::DoNotOptimize(matcher.is_robot(agent));
  allocations.report(state);
}

void BM_RobotCheckBrowser(benchmark::State& state) { robot_check(state, kBrowser); }
void BM_RobotCheckPlayer(benchmark::State& state) { robot_check(state, kPlayer); }
void BM_RobotCheckRobot(benchmark::State& state) { robot_check(state, kRobot); }
BENCHMARK(BM_RobotCheckBrowser);
BENCHMARK(BM_RobotCheckPlayer);
BENCHMARK(BM_RobotCheckRobot);

// What a decision pays: the core's remembered verdict for an agent it has seen
// (invalid_traffic/robot_verdicts.h).
void remembered_check(benchmark::State& state, const char* agent) {
  static invalid_traffic::RobotVerdicts verdicts(invalid_traffic::RobotMatcher::instance());
  benchmark::DoNotOptimize(verdicts.is_robot(agent));
  const perf::AllocationWatch allocations;
  for (auto _ : state) benchmark::DoNotOptimize(verdicts.is_robot(agent));
  allocations.report(state);
}
void BM_RobotVerdictBrowser(benchmark::State& state) { remembered_check(state, kBrowser); }
void BM_RobotVerdictRobot(benchmark::State& state) { remembered_check(state, kRobot); }
BENCHMARK(BM_RobotVerdictBrowser);
BENCHMARK(BM_RobotVerdictRobot);

}  // namespace
