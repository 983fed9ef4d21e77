// Which CPUs the reactors get and which the rest of the process gets.
#include "runtime/cpu_plan.h"

#include <gtest/gtest.h>

namespace runtime {
namespace {

using Cpus = std::vector<int>;

TEST(CpuPlan, UnpinnedRestrictsNothing) {
  const CpuPlan plan = plan_cpus({0, 1, 2, 3}, 2, false);
  EXPECT_EQ(plan.reactors, Cpus{});
  EXPECT_EQ(plan.others, Cpus{});
}

TEST(CpuPlan, PinnedReactorsTakeTheFirstAllowedCpusAndTheRestGoToOtherThreads) {
  const CpuPlan plan = plan_cpus({2, 3, 5, 8, 9}, 3, true);
  EXPECT_EQ(plan.reactors, (Cpus{2, 3, 5}));
  EXPECT_EQ(plan.others, (Cpus{8, 9}));
}

TEST(CpuPlan, ReactorsOnEveryAllowedCpuLeaveOtherThreadsUnrestricted) {
  const CpuPlan plan = plan_cpus({0, 1}, 2, true);
  EXPECT_EQ(plan.reactors, (Cpus{0, 1}));
  EXPECT_EQ(plan.others, Cpus{});
}

TEST(CpuPlan, MoreCoresThanCpusPinsNothing) {
  // The flags refuse it; the plan does not index past the list either way.
  const CpuPlan plan = plan_cpus({0}, 2, true);
  EXPECT_EQ(plan.reactors, Cpus{});
  EXPECT_EQ(plan.others, Cpus{});
}

TEST(CpuPlan, ListsAreWrittenAsTasksetWritesThem) {
  EXPECT_EQ(cpu_list({}), "");
  EXPECT_EQ(cpu_list({4}), "4");
  EXPECT_EQ(cpu_list({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(cpu_list({1, 3, 4, 7, 8, 9}), "1,3-4,7-9");
}

}  // namespace
}  // namespace runtime
