// The soft open-files limit is raised to the hard one at start-up (docs/operations.md,
// "File descriptors").
#include "runtime/open_files_limit.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

namespace runtime {
namespace {

// Restores the limits this test changes, so the rest of the process keeps its own.
class SavedLimit {
 public:
  SavedLimit() { ::getrlimit(RLIMIT_NOFILE, &saved_); }
  ~SavedLimit() { ::setrlimit(RLIMIT_NOFILE, &saved_); }
  const struct rlimit& saved() const { return saved_; }

 private:
  struct rlimit saved_ {};
};

TEST(OpenFilesLimit, SoftLimitBelowTheHardOneIsRaisedToIt) {
  SavedLimit saved;
  if (saved.saved().rlim_max != RLIM_INFINITY && saved.saved().rlim_max < 128) {
    GTEST_SKIP() << "hard limit " << saved.saved().rlim_max << " leaves no room below it";
  }
  struct rlimit lowered = saved.saved();
  lowered.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &lowered), 0);

  const OpenFilesLimit got = raise_open_files_limit();
  EXPECT_EQ(got.error, 0);
  EXPECT_EQ(got.soft_before, 64u);
  EXPECT_EQ(got.soft, got.hard);
  struct rlimit now {};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &now), 0);
  EXPECT_EQ(now.rlim_cur, now.rlim_max);
  EXPECT_EQ(now.rlim_max, saved.saved().rlim_max) << "the hard limit is left as it was";
}

TEST(OpenFilesLimit, SoftLimitAtTheHardOneIsLeftAlone) {
  SavedLimit saved;
  struct rlimit at_hard = saved.saved();
  at_hard.rlim_cur = at_hard.rlim_max;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &at_hard), 0);

  const OpenFilesLimit got = raise_open_files_limit();
  EXPECT_EQ(got.error, 0);
  EXPECT_EQ(got.soft_before, got.soft);
  EXPECT_EQ(got.soft, got.hard);
}

}  // namespace
}  // namespace runtime
