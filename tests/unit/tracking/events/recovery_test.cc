// Start-up recovery (tracking/state/recovery.h): snapshots plus the log rebuild exactly the
// state the server had, on the same or another number of cores.
#include "tracking/state/recovery.h"

#include <filesystem>
#include <fstream>
#include <random>

#include <xxhash.h>

#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/dedup/impression_key.h"
#include "tracking/events/event_line.h"
#include "tracking/events/log_files.h"
#include "tracking/state/snapshot_format.h"
#include "tracking/state/snapshot_writer.h"

namespace tracking::state {
namespace {

constexpr int64_t kStart = 1'790'000'000;
// Ads 1..4; ad 1 allows 3 an hour, ad 2 1 a day (bucketed: 8 a week too), 3 and 4 uncapped.
const caps::CapRule kAd1[] = {{3, 3600}};
const caps::CapRule kAd2[] = {{1, 86400}, {8, 604800}};

std::span<const caps::CapRule> recovery_caps_of(uint64_t ad) {
  if (ad == 1) return kAd1;
  if (ad == 2) return kAd2;
  return {};
}

struct Impression {
  std::string user;  // empty: none
  uint64_t ad;
  uint64_t token_id;
  int64_t at_s;
};

// A server's life as the test plays it: impressions counted by their owner core, each logged
// there, the way ImpressionCounter does.
class Simulated {
 public:
  Simulated(std::string state_dir, uint32_t cores) : dir_(std::move(state_dir)), cores_(cores), state_(cores) {
    for (uint32_t c = 0; c < cores; ++c) {
      std::filesystem::create_directories(events::core_dir(dir_, c));
      files_.emplace_back(events::log_file_path(events::core_dir(dir_, c), 0));
    }
  }

  void count(const Impression& i) {
    const std::optional<uint64_t> user = i.user.empty() ? std::nullopt : std::optional<uint64_t>(caps::user_key(i.user));
    const uint64_t key = dedup::impression_key(user, i.token_id);
    const uint32_t core = caps::owner_core(key, cores_);
    CoreState& s = state_[core];
    const bool first = s.dedup->first_sighting(key, i.at_s + 3600, i.at_s);
    if (first && user) s.caps->record(*user, i.ad, recovery_caps_of(i.ad), i.at_s);
    if (first) ++s.counted_by_ad[i.ad];
    events::EventRecord r;
    r.time_ms = i.at_s * 1000;
    r.kind = "impression";
    r.ad = i.ad;
    if (!i.user.empty()) r.user = i.user;
    r.core = core;
    r.tracking = true;
    r.duplicate = !first;
    r.issued_s = i.at_s;
    r.expires_s = i.at_s + 3600;
    r.token_id = i.token_id;
    std::string line;
    events::append_event_line(r, s.next_seq++, line);
    files_[core] << line << std::flush;
  }

  void snapshot_all(int64_t now_s) {
    for (uint32_t c = 0; c < cores_; ++c) ASSERT_TRUE(write_snapshot_now(dir_, c, cores_, state_[c], now_s).ok());
  }

  std::vector<CoreState>& state() { return state_; }

 private:
  std::string dir_;
  uint32_t cores_;
  std::vector<CoreState> state_;
  std::vector<std::ofstream> files_;
};

std::vector<Impression> traffic(uint64_t seed, int n, int64_t from_s) {
  std::mt19937_64 random(seed);
  std::vector<Impression> out;
  for (int i = 0; i < n; ++i) {
    Impression imp;
    const int u = static_cast<int>(random() % 40);
    imp.user = u < 35 ? "user-" + std::to_string(u) : "";
    imp.ad = 1 + random() % 4;
    // Some calls repeat an earlier token.
    imp.token_id = (i > 10 && random() % 5 == 0) ? out[random() % out.size()].token_id : random();
    imp.at_s = from_s + i;
    out.push_back(imp);
  }
  return out;
}

// Every answer the live state gives, the recovered one gives too.
void expect_same_answers(std::vector<CoreState>& live, uint32_t live_cores, std::vector<CoreState>& recovered,
                         uint32_t recovered_cores, const std::vector<Impression>& seen, int64_t now_s) {
  for (int u = 0; u < 35; ++u) {
    const uint64_t user = caps::user_key("user-" + std::to_string(u));
    for (uint64_t ad = 1; ad <= 2; ++ad) {
      EXPECT_EQ(live[caps::owner_core(user, live_cores)].caps->allows(user, ad, recovery_caps_of(ad), now_s),
                recovered[caps::owner_core(user, recovered_cores)].caps->allows(user, ad, recovery_caps_of(ad), now_s))
          << "user " << u << " ad " << ad;
    }
  }
  for (const Impression& i : seen) {
    const std::optional<uint64_t> user = i.user.empty() ? std::nullopt : std::optional<uint64_t>(caps::user_key(i.user));
    const uint64_t key = dedup::impression_key(user, i.token_id);
    EXPECT_EQ(live[caps::owner_core(key, live_cores)].dedup->contains(key, now_s),
              recovered[caps::owner_core(key, recovered_cores)].dedup->contains(key, now_s));
    EXPECT_TRUE(recovered[caps::owner_core(key, recovered_cores)].dedup->contains(key, now_s));
  }
}

// The impressions counted by ad over the node (delivery goals, docs/pacing.md): what the live
// cores counted, neither less nor more.
void expect_same_counts(const std::vector<CoreState>& live, const Recovered& recovered) {
  impressions::CountedByAd counted;
  for (const CoreState& core : live) {
    for (const auto& [ad, n] : core.counted_by_ad) counted[ad] += n;
  }
  EXPECT_EQ(recovered.counted_by_ad_on_node, counted);
}

TEST(Recovery, LogAloneRebuildsTheState) {
  testing::TemporaryDirectory dir;
  Simulated server(dir.path(), 2);
  const auto calls = traffic(1, 600, kStart);
  for (const Impression& i : calls) server.count(i);
  Recovered recovered = recover_state(dir.path(), 2, kStart + 600, recovery_caps_of);
  EXPECT_EQ(recovered.report.snapshots_loaded, 0u);
  expect_same_answers(server.state(), 2, recovered.cores, 2, calls, kStart + 600);
  expect_same_counts(server.state(), recovered);
  EXPECT_EQ(recovered.cores[0].counted_by_ad, server.state()[0].counted_by_ad);
  EXPECT_EQ(recovered.cores[0].next_seq, server.state()[0].next_seq);
  EXPECT_EQ(recovered.cores[1].next_seq, server.state()[1].next_seq);
}

TEST(Recovery, SnapshotPlusTheLogAfterItRebuildsTheStateWithoutCountingTwice) {
  testing::TemporaryDirectory dir;
  Simulated server(dir.path(), 2);
  const auto before = traffic(2, 400, kStart);
  for (const Impression& i : before) server.count(i);
  server.snapshot_all(kStart + 400);
  const auto after = traffic(3, 300, kStart + 400);
  for (const Impression& i : after) server.count(i);
  Recovered recovered = recover_state(dir.path(), 2, kStart + 700, recovery_caps_of);
  EXPECT_EQ(recovered.report.snapshots_loaded, 2u);
  EXPECT_LE(recovered.report.impressions_replayed, 300u);  // only what followed the snapshot
  auto all = before;
  all.insert(all.end(), after.begin(), after.end());
  expect_same_answers(server.state(), 2, recovered.cores, 2, all, kStart + 700);
  expect_same_counts(server.state(), recovered);
  EXPECT_EQ(recovered.cores[1].counted_by_ad, server.state()[1].counted_by_ad);
}

TEST(Recovery, ChangedCoreCountMovesShardsToTheirNewOwners) {
  for (const auto& [from, to] : {std::pair<uint32_t, uint32_t>{1, 2}, {2, 3}, {3, 1}}) {
    testing::TemporaryDirectory dir;
    Simulated server(dir.path(), from);
    const auto before = traffic(4, 300, kStart);
    for (const Impression& i : before) server.count(i);
    server.snapshot_all(kStart + 300);
    const auto after = traffic(5, 200, kStart + 300);
    for (const Impression& i : after) server.count(i);
    Recovered recovered = recover_state(dir.path(), to, kStart + 500, recovery_caps_of);
    EXPECT_TRUE(recovered.snapshots_stale);
    auto all = before;
    all.insert(all.end(), after.begin(), after.end());
    expect_same_answers(server.state(), from, recovered.cores, to, all, kStart + 500);
    expect_same_counts(server.state(), recovered);
    // The stale snapshots rewritten, as start-up does, and recovered again: each log's
    // counts stay its own, so nothing is counted twice.
    for (uint32_t c = 0; c < to; ++c) {
      ASSERT_TRUE(write_snapshot_now(dir.path(), c, to, recovered.cores[c], kStart + 500).ok());
    }
    const Recovered again = recover_state(dir.path(), to, kStart + 500, recovery_caps_of);
    expect_same_counts(server.state(), again);
  }
}

TEST(Recovery, CorruptSnapshotIsRefusedAndTheLogReplayedFromTheStart) {
  testing::TemporaryDirectory dir;
  Simulated server(dir.path(), 1);
  const auto calls = traffic(6, 300, kStart);
  for (size_t i = 0; i < calls.size(); ++i) {
    server.count(calls[i]);
    if (i == 150) server.snapshot_all(kStart + 150);
  }
  const std::string path = snapshot_path(dir.path(), 0);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(40);
    file.put('\x7f');
  }
  Recovered recovered = recover_state(dir.path(), 1, kStart + 300, recovery_caps_of);
  EXPECT_EQ(recovered.report.snapshots_refused, 1u);
  EXPECT_EQ(recovered.report.snapshots_loaded, 0u);
  expect_same_answers(server.state(), 1, recovered.cores, 1, calls, kStart + 300);
  expect_same_counts(server.state(), recovered);
}

TEST(Recovery, SnapshotsNamingCoresWhoseFilesAreGoneStillRecover) {
  testing::TemporaryDirectory dir;
  Simulated server(dir.path(), 3);
  for (const Impression& i : traffic(8, 300, kStart)) server.count(i);
  server.snapshot_all(kStart + 300);
  // An operator removed the last core's files: its snapshot and its log.
  std::filesystem::remove(snapshot_path(dir.path(), 2));
  std::filesystem::remove_all(events::core_dir(dir.path(), 2));
  Recovered recovered = recover_state(dir.path(), 1, kStart + 300, recovery_caps_of);
  EXPECT_EQ(recovered.report.snapshots_loaded, 2u);
  EXPECT_TRUE(recovered.snapshots_stale);
}

// An idle core snapshots with nothing logged since its last line: the snapshot starts past
// the end of the log, and the next run must still number its lines after every line logged
// (a reused number would put new impressions behind the shards' seqs, where replay skips).
TEST(Recovery, SequenceContinuesPastTheLogWhenTheSnapshotFollowsItsLastLine) {
  testing::TemporaryDirectory dir;
  Simulated server(dir.path(), 2);
  const auto calls = traffic(9, 300, kStart);
  for (const Impression& i : calls) server.count(i);
  server.snapshot_all(kStart + 300);
  Recovered recovered = recover_state(dir.path(), 2, kStart + 300, recovery_caps_of);
  EXPECT_EQ(recovered.report.snapshots_loaded, 2u);
  EXPECT_EQ(recovered.report.impressions_replayed, 0u);
  EXPECT_EQ(recovered.cores[0].next_seq, server.state()[0].next_seq);
  EXPECT_EQ(recovered.cores[1].next_seq, server.state()[1].next_seq);
  expect_same_answers(server.state(), 2, recovered.cores, 2, calls, kStart + 300);
}

// A snapshot of the first format (no counts by ad) still loads; its core's log is then
// counted from its first line.
TEST(SnapshotFormat, AFileWithoutCountsIsReadAsCountingNothing) {
  SnapshotHeader header{0, 1, kShards, 5, kStart};
  std::string bytes;
  append_header(header, bytes);
  bytes.replace(0, kSnapshotMagic.size(), kSnapshotMagicWithoutCounts);
  for (uint32_t shard = 0; shard < kShards; ++shard) append_shard(5, "", "", bytes);
  const uint64_t digest = XXH3_64bits(bytes.data(), bytes.size());
  bytes.append(reinterpret_cast<const char*>(&digest), sizeof(digest));
  bytes.append(kSnapshotEndMagic);
  const absl::StatusOr<SnapshotView> view = parse_snapshot(bytes);
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_FALSE(view->has_counted);
  EXPECT_TRUE(view->counted.empty());
  EXPECT_EQ(view->header.start_seq, 5u);
}

TEST(SnapshotFormat, CountsByAdRoundTrip) {
  testing::TemporaryDirectory dir;
  Simulated server(dir.path(), 1);
  for (const Impression& i : traffic(10, 80, kStart)) server.count(i);
  server.snapshot_all(kStart + 80);
  std::ifstream in(snapshot_path(dir.path(), 0), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const absl::StatusOr<SnapshotView> view = parse_snapshot(bytes);
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_TRUE(view->has_counted);
  EXPECT_EQ(view->counted, server.state()[0].counted_by_ad);
  EXPECT_FALSE(view->counted.empty());
}

TEST(SnapshotFormat, EveryTruncationIsRefused) {
  testing::TemporaryDirectory dir;
  Simulated server(dir.path(), 1);
  for (const Impression& i : traffic(7, 50, kStart)) server.count(i);
  server.snapshot_all(kStart + 50);
  std::ifstream in(snapshot_path(dir.path(), 0), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(parse_snapshot(bytes).ok());
  for (size_t n = 0; n < bytes.size(); n += 97) EXPECT_FALSE(parse_snapshot(std::string_view(bytes).substr(0, n)).ok()) << n;
}

}  // namespace
}  // namespace tracking::state
