#include "tracking/shared_impressions/unapplied_scan.h"

#include <sys/stat.h>

#include <charconv>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

#include "tracking/events/event_log_reader.h"
#include "tracking/events/log_files.h"

namespace tracking::shared_impressions {

namespace {

bool request_id_of(std::string_view hex, std::array<uint8_t, 16>& out) {
  if (hex.size() != 32) return false;
  for (size_t i = 0; i < 16; ++i) {
    const char* begin = hex.data() + 2 * i;
    if (std::from_chars(begin, begin + 2, out[i], 16).ptr != begin + 2) return false;
  }
  return true;
}

// The core number of an events/core-<N> directory, or -1.
int64_t core_of(const std::filesystem::path& directory) {
  const std::string name = directory.filename().string();
  if (name.rfind("core-", 0) != 0) return -1;
  uint32_t n = 0;
  const char* begin = name.data() + 5;
  const char* end = name.data() + name.size();
  if (std::from_chars(begin, end, n).ptr != end) return -1;
  return n;
}

// The sequence number to read a core's log from: the first file written at or after
// written_before_s (a file's lines are no newer than its last write).
uint64_t first_recent_seq(const std::string& core_directory, int64_t written_before_s) {
  for (const events::LogFile& file : events::list_log_files(core_directory)) {
    struct stat st {};
    if (stat(file.path.c_str(), &st) != 0 || int64_t{st.st_mtime} >= written_before_s) return file.first_seq;
  }
  return UINT64_MAX;
}

impressions::ImpressionNotice notice_of(const events::ParsedEvent& e) {
  impressions::ImpressionNotice notice;
  notice.time_ms = e.time_ms;
  notice.token_id = e.token_id;
  notice.attempt = e.attempt;
  notice.issued_s = e.issued_s;
  notice.expires_s = e.expires_s;
  notice.ad_id = e.ad;
  notice.creative_id = e.creative;
  notice.placement_id = e.placement;
  notice.has_user = e.user.has_value();
  notice.user_id.assign(e.user.value_or(""));
  return notice;
}

// What the lines say, before they are matched: each unapplied line is one attempt waiting,
// each reapplied line settles one.
struct Lines {
  // (identity, attempt) -> the unapplied attempts of this core's directories, by log order.
  std::multimap<std::pair<uint64_t, uint64_t>, std::pair<uint64_t, impressions::ImpressionNotice>> waiting;
  // (identity, attempt) settled by a reapplied line, in any directory: after a change of
  // --cores the core that applied an attempt again may not own the directory that logged it
  // unapplied. Attempt 0: a reapplied line of a release that did not write its attempt.
  std::vector<std::pair<uint64_t, uint64_t>> settled;
};

// Removes one waiting attempt per reapplied line: the one of the same stamp.
void settle(Lines& lines) {
  for (const std::pair<uint64_t, uint64_t>& key : lines.settled) {
    auto found = lines.waiting.end();
    if (key.second != 0) found = lines.waiting.find(key);
    // A line of an earlier release on either side: an unapplied line without its stamp was
    // sent again with a new one, and a reapplied line without one settles the oldest.
    if (found == lines.waiting.end() && key.second != 0) found = lines.waiting.find({key.first, 0});
    if (key.second == 0) {
      auto it = lines.waiting.lower_bound({key.first, 0});
      for (; it != lines.waiting.end() && it->first.first == key.first; ++it) {
        if (found == lines.waiting.end() || it->second.first < found->second.first) found = it;
      }
    }
    if (found != lines.waiting.end()) lines.waiting.erase(found);
  }
}

}  // namespace

UnappliedScan scan_unapplied(const std::string& state_dir, uint32_t core, uint32_t cores, int64_t expired_before_s,
                             int64_t written_before_s) {
  UnappliedScan scan;
  Lines lines;
  uint64_t order = 0;
  std::error_code error;
  const std::filesystem::path events = std::filesystem::path(state_dir) / "events";
  for (const auto& entry : std::filesystem::directory_iterator(events, error)) {
    const int64_t directory_core = core_of(entry.path());
    if (directory_core < 0) continue;
    const bool owned = static_cast<uint32_t>(directory_core) % cores == core;
    const uint64_t from_seq = first_recent_seq(entry.path().string(), written_before_s);
    if (from_seq == UINT64_MAX) continue;
    const events::ReadStats stats = events::read_core_log(entry.path().string(), from_seq, [&](const events::ParsedEvent& e) {
      if (e.kind != "impression" || e.store.empty()) return;
      if (e.store == "reapplied") {
        lines.settled.emplace_back(e.token_id, e.attempt);
        return;
      }
      if (!owned) return;
      impressions::ImpressionNotice notice = notice_of(e);
      if (!request_id_of(e.request, notice.request_id)) return;
      lines.waiting.emplace(std::pair{e.token_id, e.attempt}, std::pair{order++, std::move(notice)});
    });
    if (owned) scan.lines += stats.lines;
  }
  settle(lines);
  std::map<uint64_t, impressions::ImpressionNotice*> in_log_order;
  for (auto& [key, waiting] : lines.waiting) in_log_order.emplace(waiting.first, &waiting.second);
  for (auto& [order_of_line, notice] : in_log_order) {
    if (notice->expires_s < expired_before_s) {
      ++scan.expired;
      continue;
    }
    scan.unapplied.push_back(std::move(*notice));
  }
  return scan;
}

}  // namespace tracking::shared_impressions
