#include "tracking/state/recovery.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "caps/user_key.h"
#include "tracking/dedup/impression_key.h"
#include "tracking/events/event_log_reader.h"
#include "tracking/events/log_files.h"
#include "tracking/state/snapshot_format.h"

namespace tracking::state {

namespace {

struct LoadedSnapshot {
  std::string bytes;  // the views of view point here
  SnapshotView view;
};

std::optional<LoadedSnapshot> load_snapshot(const std::string& path, RecoveryReport& report) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return std::nullopt;
  LoadedSnapshot loaded;
  loaded.bytes.resize(size);
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return std::nullopt;
  const size_t read = std::fread(loaded.bytes.data(), 1, loaded.bytes.size(), file);
  std::fclose(file);
  loaded.bytes.resize(read);
  absl::StatusOr<SnapshotView> view = parse_snapshot(loaded.bytes);
  if (!view.ok() || view->header.shards != kShards) {
    ++report.snapshots_refused;
    report.notes.push_back(path + " refused (" +
                           (view.ok() ? std::string("another shard count") : std::string(view.status().message())) +
                           "): replaying its core's log from the start");
    return std::nullopt;
  }
  loaded.view = *std::move(view);
  return loaded;
}

// The snapshots of the last run: the core count they were written under, and each core's.
struct LastRun {
  std::vector<std::optional<LoadedSnapshot>> snapshots;  // by core of the last run
  uint32_t cores = 0;                                    // 0: no snapshot at all

  // The snapshot that holds shard s, if any.
  const LoadedSnapshot* holder(uint32_t shard) const {
    if (cores == 0) return nullptr;
    const uint32_t k = shard_owner(shard, cores);
    // A snapshot may name more cores than there are files for (their snapshots are gone).
    return k < snapshots.size() && snapshots[k] ? &*snapshots[k] : nullptr;
  }
};

// Reads the snapshots of cores 0..highest-1; they agree on the last run's core count, and
// the newest says what it was.
LastRun load_last_run(const std::string& state_dir, uint32_t highest, RecoveryReport& report) {
  LastRun last;
  last.snapshots.resize(highest);
  int64_t newest = INT64_MIN;
  for (uint32_t k = 0; k < highest; ++k) {
    last.snapshots[k] = load_snapshot(snapshot_path(state_dir, k), report);
    if (last.snapshots[k] && last.snapshots[k]->view.header.written_s > newest) {
      newest = last.snapshots[k]->view.header.written_s;
      last.cores = last.snapshots[k]->view.header.cores;
    }
  }
  for (uint32_t k = 0; k < highest; ++k) {
    std::optional<LoadedSnapshot>& snapshot = last.snapshots[k];
    // A leftover of an older core count, or a snapshot in the wrong file: not the last run's.
    if (snapshot && (snapshot->view.header.cores != last.cores || snapshot->view.header.core != k)) {
      report.notes.push_back(snapshot_path(state_dir, k) + " ignored: written under another core count");
      snapshot.reset();
    }
  }
  for (const auto& snapshot : last.snapshots) report.snapshots_loaded += snapshot ? 1 : 0;
  return last;
}

// Each shard's snapshot into the core that owns the shard now.
void load_shards(const LastRun& last, uint32_t cores, Recovered& out) {
  for (uint32_t shard = 0; shard < kShards; ++shard) {
    const LoadedSnapshot* snapshot = last.holder(shard);
    if (snapshot == nullptr) continue;
    CoreState& owner = out.cores[shard_owner(shard, cores)];
    const SnapshotShard& saved = snapshot->view.shards[shard];
    const absl::Status caps_loaded = owner.caps->load_shard(shard, saved.caps);
    const absl::Status dedup_loaded = owner.dedup->load_shard(shard, saved.dedup);
    if (!caps_loaded.ok() || !dedup_loaded.ok()) {
      out.report.notes.push_back("a snapshot shard did not load: " +
                                 std::string((caps_loaded.ok() ? dedup_loaded : caps_loaded).message()));
    }
  }
}

// Replays the log of the last run's core d into the cores that own its shards now, and
// raises next_seq to the number core d's next line must have.
void replay_core_log(const std::string& state_dir, uint32_t d, const LastRun& last, uint32_t cores, int64_t now_s,
                     const AdCapsLookup& caps_of, uint64_t& next_seq, Recovered& out) {
  RecoveryReport& report = out.report;
  const std::string directory = events::core_dir(state_dir, d);
  const bool own_snapshot = d < last.snapshots.size() && last.snapshots[d].has_value();
  const uint64_t from = own_snapshot ? last.snapshots[d]->view.header.start_seq : 0;
  const std::vector<events::LogFile> files = events::list_log_files(directory);
  if (!files.empty()) next_seq = std::max(next_seq, files.back().first_seq);
  // A core idle since its last line snapshots past the end of its log, and replay from
  // there visits nothing: its next number is then the snapshot's. Lower, and new lines would
  // sort behind the shards' seqs, where the next recovery skips them.
  if (own_snapshot) {
    for (const SnapshotShard& shard : last.snapshots[d]->view.shards) next_seq = std::max(next_seq, shard.seq);
  }
  // What this log has counted by ad: the snapshot's counts as of its start, plus the lines
  // from there on. Without counts in the snapshot (none, or one written before they were
  // kept), the whole log is read: counted from its first line.
  const bool snapshot_counts = own_snapshot && last.snapshots[d]->view.has_counted;
  impressions::CountedByAd counted = snapshot_counts ? last.snapshots[d]->view.counted : impressions::CountedByAd{};
  const uint64_t counted_from = snapshot_counts ? from : 0;
  const events::ReadStats stats = events::read_core_log(directory, std::min(from, counted_from), [&](const events::ParsedEvent& e) {
    next_seq = std::max(next_seq, e.seq + 1);
    // A robot's impression counted toward nothing when it came: nor does it now.
    if (e.kind != "impression" || e.duplicate || !e.invalid.empty()) return;
    // Cluster mode: an unapplied line is not counted yet; its reapplied line says whether
    // it was (docs/cluster.md).
    if (e.seq >= counted_from && e.store != "unapplied") ++counted[e.ad];
    if (e.seq < from) return;
    const std::optional<uint64_t> user_key = e.user ? std::optional<uint64_t>(caps::user_key(*e.user)) : std::nullopt;
    const uint64_t dedup_key = dedup::impression_key(user_key, e.token_id);
    const uint32_t shard = static_cast<uint32_t>(dedup_key & (kShards - 1));
    if (const LoadedSnapshot* snapshot = last.holder(shard)) {
      if (d != snapshot->view.header.core || e.seq < snapshot->view.shards[shard].seq) return;
    }
    CoreState& owner = out.cores[shard_owner(shard, cores)];
    const int64_t at_s = e.time_ms / 1000;
    // An expired token is refused before any dedup check: remembering it is pointless.
    // Its impression still counts against caps while inside their windows.
    if (e.expires_s > now_s && !owner.dedup->first_sighting(dedup_key, e.expires_s, now_s)) return;
    if (user_key) owner.caps->record(*user_key, e.ad, caps_of(e.ad), at_s);
    ++report.impressions_replayed;
  });
  for (const auto& [ad, impressions] : counted) out.counted_by_ad_on_node[ad] += impressions;
  if (d < cores) out.cores[d].counted_by_ad = std::move(counted);
  report.files_read += stats.files;
  report.bytes_read += stats.bytes;
  report.lines_read += stats.lines;
  report.torn_lines += stats.torn_lines;
}

}  // namespace

Recovered recover_state(const std::string& state_dir, uint32_t cores, int64_t now_s, const AdCapsLookup& caps_of) {
  const auto started = std::chrono::steady_clock::now();
  Recovered out;
  out.cores.resize(cores);

  const std::vector<uint32_t> dirs = events::list_core_dirs(state_dir);
  uint32_t highest = cores;
  for (uint32_t d : dirs) highest = std::max(highest, d + 1);
  const LastRun last = load_last_run(state_dir, highest, out.report);
  load_shards(last, cores, out);

  // Replay. A log holds impressions only of shards its core owned when it wrote them; a
  // shard's holder snapshot already has everything of it logged before its seq, and
  // (after a change of core count) everything logged in other cores' files.
  std::vector<uint64_t> next_seq(highest, 0);
  for (uint32_t d : dirs) replay_core_log(state_dir, d, last, cores, now_s, caps_of, next_seq[d], out);
  for (uint32_t c = 0; c < cores; ++c) out.cores[c].next_seq = next_seq[c];
  out.snapshots_stale = last.cores != 0 && last.cores != cores;
  out.report.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace tracking::state
