// Start-up recovery with 10 million impressions logged (issue 9, point 5): the time to
// rebuild the caps and dedup state from the log alone, and from a snapshot plus the minute
// of log after it, which is what --snapshot-interval=60s bounds start-up to. Each case
// builds its state directory once (about 2.5 GB of log under $TMPDIR) and measures one
// recovery; run it on its own: --benchmark_filter=Recovery.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include "caps/user_key.h"
#include "perf/bench_caps.h"
#include "tracking/dedup/impression_key.h"
#include "tracking/events/event_line.h"
#include "tracking/events/log_files.h"
#include "tracking/state/recovery.h"
#include "tracking/state/snapshot_writer.h"

namespace {

constexpr uint64_t kImpressions = 10'000'000;
constexpr uint64_t kRecoveryUsers = 2'000'000;
constexpr uint64_t kPerSecond = 30'000;  // the rate the log was written at: 10 M in about 5.5 min

std::span<const caps::CapRule> caps_of(uint64_t) { return kCap; }

struct BuiltState {
  std::string directory;
  uint64_t tail_lines = 0;  // lines after the snapshot
};

// One core's log of kImpressions impressions; with a snapshot, taken one minute of traffic
// before the end.
BuiltState build(bool with_snapshot) {
  BuiltState built;
  char pattern[] = "/tmp/decisiond-recovery-bench-XXXXXX";
  built.directory = ::mkdtemp(pattern);
  const std::string core = tracking::events::core_dir(built.directory, 0);
  std::filesystem::create_directories(core);
  std::ofstream log(tracking::events::log_file_path(core, 0), std::ios::binary);
  tracking::state::CoreState state;
  const uint64_t snapshot_at = kImpressions - 60 * kPerSecond;
  std::mt19937_64 random(7);
  std::string line, user;
  tracking::events::EventRecord r;
  r.kind = "impression";
  r.tracking = true;
  for (uint64_t seq = 0; seq < kImpressions; ++seq) {
    if (with_snapshot && seq == snapshot_at) {
      state.next_seq = seq;
      (void)tracking::state::write_snapshot_now(built.directory, 0, 1, state, kNow);
    }
    const int64_t at_s = kNow - static_cast<int64_t>((kImpressions - seq) / kPerSecond);
    user = "user-" + std::to_string(random() % kRecoveryUsers);
    r.time_ms = at_s * 1000;
    r.ad = 1 + random() % 50;
    r.user = user;
    r.issued_s = at_s;
    r.expires_s = at_s + 3600;
    r.token_id = random();
    const uint64_t key = caps::user_key(user);
    if (with_snapshot && seq < snapshot_at) {
      state.dedup->first_sighting(tracking::dedup::impression_key(key, r.token_id), r.expires_s, at_s);
      state.caps->record(key, r.ad, kCap, at_s);
    }
    line.clear();
    tracking::events::append_event_line(r, seq, line);
    log << line;
  }
  built.tail_lines = with_snapshot ? kImpressions - snapshot_at : kImpressions;
  return built;
}

void recover(benchmark::State& state, bool with_snapshot) {
  const BuiltState built = build(with_snapshot);
  for (auto _ : state) {
    tracking::state::Recovered recovered = tracking::state::recover_state(built.directory, 1, kNow, caps_of);
    benchmark::DoNotOptimize(recovered.cores.size());
    state.counters["replayed"] = static_cast<double>(recovered.report.impressions_replayed);
    state.counters["cap_entries"] = static_cast<double>(recovered.cores[0].caps->entries());
    state.counters["dedup_entries"] = static_cast<double>(recovered.cores[0].dedup->entries());
  }
  state.counters["tail_lines"] = static_cast<double>(built.tail_lines);
  std::error_code ignored;
  std::filesystem::remove_all(built.directory, ignored);
}

void BM_RecoveryFromTheLogAlone10MImpressions(benchmark::State& state) { recover(state, false); }
BENCHMARK(BM_RecoveryFromTheLogAlone10MImpressions)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_RecoveryFromSnapshotPlusAMinute10MImpressions(benchmark::State& state) { recover(state, true); }
BENCHMARK(BM_RecoveryFromSnapshotPlusAMinute10MImpressions)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
