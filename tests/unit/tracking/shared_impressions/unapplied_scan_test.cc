// The start-up scan of cluster mode (tracking/shared_impressions/unapplied_scan.h): which
// impressions a node applies again to the shared cap store after a restart.
#include "tracking/shared_impressions/unapplied_scan.h"

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace tracking::shared_impressions {
namespace {

constexpr int64_t kNowS = 1'790'000'000;

class UnappliedScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/unapplied-scan-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // One impression line as the event log writes it.
  static std::string line(uint64_t seq, const char* token, const char* store, bool duplicate, int64_t expires_s,
                          const char* attempt = nullptr) {
    std::string l = R"({"seq":)" + std::to_string(seq) + R"(,"time_ms":1790000000000,"kind":"impression","ad":2,)" +
                    R"("creative":20,"placement":7,"request":"0123456789abcdef0123456789abcdef","user":"u1","core":0,)" +
                    R"("duplicate":)" + (duplicate ? "true" : "false") + R"(,"issued_s":1789999990,"expires_s":)" +
                    std::to_string(expires_s) + R"(,"token":")" + token + R"(")";
    if (*store != '\0') l += std::string(R"(,"store":")") + store + R"(")";
    if (attempt != nullptr) l += std::string(R"(,"attempt":")") + attempt + R"(")";
    return l + "}\n";
  }
  // A log file of core `core` starting at first_seq, last written at written_s.
  void write_file(uint32_t core, uint64_t first_seq, const std::string& lines, int64_t written_s) {
    const std::filesystem::path directory = std::filesystem::path(dir_) / "events" / ("core-" + std::to_string(core));
    std::filesystem::create_directories(directory);
    char name[32];
    std::snprintf(name, sizeof(name), "%020llu.jsonl", static_cast<unsigned long long>(first_seq));
    const std::filesystem::path path = directory / name;
    std::ofstream(path) << lines;
    const utimbuf times{static_cast<time_t>(written_s), static_cast<time_t>(written_s)};
    ASSERT_EQ(utime(path.c_str(), &times), 0);
  }

  std::string dir_;
};

TEST_F(UnappliedScanTest, AnUnappliedLineWithoutItsReappliedLineIsAppliedAgain) {
  write_file(0, 0,
             line(0, "00000000000000aa", "unapplied", false, kNowS + 100) +
                 line(1, "00000000000000bb", "unapplied", false, kNowS + 100) +
                 line(2, "00000000000000aa", "reapplied", true, kNowS + 100) +
                 line(3, "00000000000000cc", "", false, kNowS + 100),
             kNowS);
  const UnappliedScan scan = scan_unapplied(dir_, 0, 1, kNowS - 3600, kNowS - 7200);
  ASSERT_EQ(scan.unapplied.size(), 1u);
  EXPECT_EQ(scan.unapplied[0].token_id, 0xbbu);
  EXPECT_EQ(scan.unapplied[0].user_id, "u1");
  EXPECT_EQ(scan.unapplied[0].request_id[0], 0x01);
  EXPECT_EQ(scan.lines, 4u);
}

TEST_F(UnappliedScanTest, OneTooOldToApplyExactlyOnceIsLeftOutAndCounted) {
  write_file(0, 0, line(0, "00000000000000dd", "unapplied", false, kNowS - 4000), kNowS);
  const UnappliedScan scan = scan_unapplied(dir_, 0, 1, kNowS - 3600, kNowS - 7200);
  EXPECT_TRUE(scan.unapplied.empty());
  EXPECT_EQ(scan.expired, 1u);
}

TEST_F(UnappliedScanTest, FilesLastWrittenBeforeTheWindowAreNotRead) {
  write_file(0, 0, line(0, "00000000000000ee", "unapplied", false, kNowS + 100), kNowS - 90'000);
  write_file(0, 1, line(1, "00000000000000ff", "unapplied", false, kNowS + 100), kNowS);
  const UnappliedScan scan = scan_unapplied(dir_, 0, 1, kNowS - 3600, kNowS - 7200);
  ASSERT_EQ(scan.unapplied.size(), 1u);
  EXPECT_EQ(scan.unapplied[0].token_id, 0xffu);
  EXPECT_EQ(scan.lines, 1u) << "the old file was skipped, not read";
}

TEST_F(UnappliedScanTest, EachCoreReadsTheDirectoriesItOwnsWhateverTheCoresWereBefore) {
  write_file(0, 0, line(0, "0000000000000001", "unapplied", false, kNowS + 100), kNowS);
  write_file(1, 0, line(0, "0000000000000002", "unapplied", false, kNowS + 100), kNowS);
  write_file(2, 0, line(0, "0000000000000003", "unapplied", false, kNowS + 100), kNowS);
  // Three cores before, two now: core 0 takes directories 0 and 2, core 1 directory 1.
  EXPECT_EQ(scan_unapplied(dir_, 0, 2, kNowS - 3600, kNowS - 7200).unapplied.size(), 2u);
  EXPECT_EQ(scan_unapplied(dir_, 1, 2, kNowS - 3600, kNowS - 7200).unapplied.size(), 1u);
}

TEST_F(UnappliedScanTest, TwoAttemptsOfOneIdentityAreEachSettledByTheirOwnReappliedLine) {
  // The same impression URL called twice on one node while the store did not answer: two
  // unapplied lines, then each applied again (the first counted, the second a repeat).
  write_file(0, 0,
             line(0, "00000000000000aa", "unapplied", false, kNowS + 100, "0000000000000001") +
                 line(1, "00000000000000aa", "unapplied", false, kNowS + 100, "0000000000000002") +
                 line(2, "00000000000000aa", "reapplied", false, kNowS + 100, "0000000000000001") +
                 line(3, "00000000000000aa", "reapplied", true, kNowS + 100, "0000000000000002"),
             kNowS);
  EXPECT_TRUE(scan_unapplied(dir_, 0, 1, kNowS - 3600, kNowS - 7200).unapplied.empty())
      << "an attempt left waiting would be sent again at every start";
}

TEST_F(UnappliedScanTest, OnlyTheAttemptNotYetReappliedWaits) {
  write_file(0, 0,
             line(0, "00000000000000aa", "unapplied", false, kNowS + 100, "0000000000000001") +
                 line(1, "00000000000000aa", "unapplied", false, kNowS + 100, "0000000000000002") +
                 line(2, "00000000000000aa", "reapplied", false, kNowS + 100, "0000000000000002"),
             kNowS);
  const UnappliedScan scan = scan_unapplied(dir_, 0, 1, kNowS - 3600, kNowS - 7200);
  ASSERT_EQ(scan.unapplied.size(), 1u);
  EXPECT_EQ(scan.unapplied[0].attempt, 1u);
}

TEST_F(UnappliedScanTest, ReappliedLinesWithoutStampsSettleOneAttemptEach) {
  // Lines written before reapplied lines carried their stamp.
  write_file(0, 0,
             line(0, "00000000000000aa", "unapplied", false, kNowS + 100, "0000000000000001") +
                 line(1, "00000000000000aa", "unapplied", false, kNowS + 100, "0000000000000002") +
                 line(2, "00000000000000aa", "reapplied", false, kNowS + 100) +
                 line(3, "00000000000000aa", "reapplied", true, kNowS + 100),
             kNowS);
  EXPECT_TRUE(scan_unapplied(dir_, 0, 1, kNowS - 3600, kNowS - 7200).unapplied.empty());
}

TEST_F(UnappliedScanTest, AReappliedLineInADirectoryAnotherCoreOwnsStillSettlesItsAttempt) {
  // Three cores logged it unapplied in directory 2; a run on two cores applied it again from
  // core 0 (which owned directory 2 then); now three cores again: core 2 must not resend it.
  write_file(2, 0, line(0, "00000000000000aa", "unapplied", false, kNowS + 100, "0000000000000001"), kNowS);
  write_file(0, 0, line(0, "00000000000000aa", "reapplied", false, kNowS + 100, "0000000000000001"), kNowS);
  EXPECT_TRUE(scan_unapplied(dir_, 2, 3, kNowS - 3600, kNowS - 7200).unapplied.empty());
}

}  // namespace
}  // namespace tracking::shared_impressions
