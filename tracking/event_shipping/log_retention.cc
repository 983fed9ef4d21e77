#include "tracking/event_shipping/log_retention.h"

#include <sys/stat.h>

#include <algorithm>

#include "tracking/events/log_files.h"
#include "tracking/state/snapshot_format.h"

namespace tracking::event_shipping {

std::vector<std::string> removable_log_files(const std::string& core_directory, uint64_t shipped_next,
                                             std::optional<uint64_t> replay_from_seq, int64_t now_s,
                                             const RetentionRules& rules) {
  std::vector<std::string> removable;
  if (!replay_from_seq) return removable;
  const int64_t written_before_s = now_s - std::max(rules.retain_s, rules.keep_written_within_s);
  const std::vector<events::LogFile> files = events::list_log_files(core_directory);
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    // Every line of files[i] has a seq below the next file's first.
    const uint64_t end_seq = files[i + 1].first_seq;
    if (end_seq > shipped_next || end_seq > *replay_from_seq) break;
    struct stat st {};
    if (::stat(files[i].path.c_str(), &st) != 0) continue;
    // Files are written in order: once one is too recent, so are the later ones.
    if (int64_t{st.st_mtime} >= written_before_s) break;
    removable.push_back(files[i].path);
  }
  return removable;
}

std::optional<uint64_t> replay_start_seq(const std::string& state_dir, uint32_t core) {
  const absl::StatusOr<state::SnapshotHeader> header = state::read_snapshot_header(state::snapshot_path(state_dir, core));
  if (!header.ok() || header->core != core) return std::nullopt;
  return header->start_seq;
}

}  // namespace tracking::event_shipping
