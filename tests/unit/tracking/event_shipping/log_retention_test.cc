// Which shipped files may go (tracking/event_shipping/log_retention.h): one test per rule.
#include "tracking/event_shipping/log_retention.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "tests/unit/tracking/event_shipping/log_dir.h"
#include "tracking/state/snapshot_format.h"

namespace tracking::event_shipping {
namespace {

constexpr int64_t kNowS = 1'790'000'000;
constexpr int64_t kDayS = 24 * 3600;
const RetentionRules kWeek{7 * kDayS, 2 * 3600};

// Three files: 0..9, 10..19, 20..29 (the live one); the first two written long ago.
class LogRetention : public ::testing::Test {
 protected:
  void SetUp() override {
    for (uint64_t first : {0, 10, 20}) log_.append(first, LogDir::lines(first, 10));
    log_.set_written(0, kNowS - 10 * kDayS);
    log_.set_written(10, kNowS - 9 * kDayS);
    log_.set_written(20, kNowS);
  }
  std::vector<std::string> removable(uint64_t shipped_next, std::optional<uint64_t> replay_from,
                                     const RetentionRules& rules = kWeek) {
    return removable_log_files(log_.core_dir(0), shipped_next, replay_from, kNowS, rules);
  }
  std::string path(uint64_t first) const { return events::log_file_path(log_.core_dir(0), first); }

  LogDir log_;
};

TEST_F(LogRetention, ClosedShippedOldFilesNotReplayedGo) {
  EXPECT_EQ(removable(30, 30), (std::vector<std::string>{path(0), path(10)}));
}

TEST_F(LogRetention, TheLiveFileNeverGoes) {
  log_.set_written(20, kNowS - 8 * kDayS);
  EXPECT_EQ(removable(30, 30), (std::vector<std::string>{path(0), path(10)}));
}

TEST_F(LogRetention, AFileNotWhollyShippedStays) {
  EXPECT_EQ(removable(19, 30), (std::vector<std::string>{path(0)}));
  EXPECT_TRUE(removable(9, 30).empty());
}

TEST_F(LogRetention, AFileWrittenWithinTheRetentionStays) {
  log_.set_written(10, kNowS - 6 * kDayS);
  EXPECT_EQ(removable(30, 30), (std::vector<std::string>{path(0)}));
}

TEST_F(LogRetention, AFileStartUpReplaysAfterTheSnapshotStays) {
  EXPECT_EQ(removable(30, 15), (std::vector<std::string>{path(0)}));
  EXPECT_TRUE(removable(30, 5).empty());
}

TEST_F(LogRetention, WithoutASnapshotStartUpReplaysEverythingAndNothingGoes) {
  EXPECT_TRUE(removable(30, std::nullopt).empty());
}

TEST_F(LogRetention, AFileTheUnappliedScanReadsStaysWhateverTheRetention) {
  const RetentionRules none_kept{0, 2 * 3600};
  log_.set_written(10, kNowS - 3600);
  EXPECT_EQ(removable(30, 30, none_kept), (std::vector<std::string>{path(0)}));
}

void write_snapshot(const std::string& state_dir, uint32_t core, uint64_t start_seq, bool whole) {
  std::filesystem::create_directories(state::snapshots_dir(state_dir));
  std::string bytes;
  state::append_header({core, 2, 0, start_seq, kNowS}, bytes);
  bytes.append(8, '\0');  // the checksum: not read here
  if (whole) bytes.append(state::kSnapshotEndMagic);
  std::ofstream(state::snapshot_path(state_dir, core), std::ios::binary) << bytes;
}

TEST(ReplayStart, IsTheSnapshotsStartSeq) {
  LogDir log;
  write_snapshot(log.state_dir(), 1, 4242, true);
  EXPECT_EQ(replay_start_seq(log.state_dir(), 1), 4242u);
}

TEST(ReplayStart, NoSnapshotOrATornOneIsNone) {
  LogDir log;
  EXPECT_EQ(replay_start_seq(log.state_dir(), 0), std::nullopt);
  write_snapshot(log.state_dir(), 0, 4242, false);
  EXPECT_EQ(replay_start_seq(log.state_dir(), 0), std::nullopt);
}

}  // namespace
}  // namespace tracking::event_shipping
