// --pin keeps a reserved core's CPU for its reactor: every other thread of the process and
// io_uring's workers (which run the event log's writes the kernel cannot finish inline and
// every fdatasync) run on the allowed CPUs no reactor holds. Read from the kernel's own
// account, /proc/<pid>/task/*/status.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/cpu_affinity.h"
#include "runtime/cpu_plan.h"
#include "tests/integration/decision_client.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/metrics_text.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

struct ThreadPlacement {
  std::string name;
  std::string cpus;  // Cpus_allowed_list
};

std::vector<ThreadPlacement> threads_of(pid_t pid) {
  std::vector<ThreadPlacement> threads;
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    ThreadPlacement thread;
    std::ifstream status(task.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Name:", 0) == 0) thread.name = line.substr(line.find_first_not_of(" \t", 5));
      if (line.rfind("Cpus_allowed_list:", 0) == 0) thread.cpus = line.substr(line.find_first_not_of(" \t", 18));
    }
    if (!thread.name.empty()) threads.push_back(thread);
  }
  return threads;
}

TEST(CpuPlacement, PinnedReactorKeepsItsCpuOtherThreadsAndIoUringWorkersRunOnTheRest) {
  const std::vector<int> cpus = runtime::allowed_cpus();
  // CI and the development machines have 2 CPUs; on one there is nothing to place.
  if (cpus.size() < 2) GTEST_SKIP() << "needs 2 allowed CPUs, this process has " << cpus.size();
  ServerProcess server(standard_flags({"--cores=1", "--pin", "--events-flush=100ms"}));
  ASSERT_TRUE(server.serving()) << server.start_error();

  // Lines for the event log, then a fdatasync of them, which io_uring always hands to a
  // worker: from then on the core's ring has one.
  DecisionClient client(server);
  for (int i = 0; i < 20; ++i) {
    const CurlReply reply = client.decide(R"({"placements":[{"key":"home_top","count":2}],"user":{"id":"u)" +
                                          std::to_string(i) + R"("}})");
    ASSERT_EQ(reply.status, 200) << reply.body;
  }
  ASSERT_TRUE(wait_for_page(server, [](const std::string& page) {
    return sum_samples(page, "decisiond_events_syncs_total", {}).value_or(0) >= 1;
  })) << "no fdatasync of the event log within the wait";

  const std::string reactor_cpu = runtime::cpu_list({cpus[0]});
  const std::string other_cpus = runtime::cpu_list(std::vector<int>(cpus.begin() + 1, cpus.end()));
  int reactors = 0;
  int workers = 0;
  int others = 0;
  for (const ThreadPlacement& thread : threads_of(server.pid())) {
    if (thread.name == "core-0") {
      ++reactors;
      EXPECT_EQ(thread.cpus, reactor_cpu) << thread.name;
      continue;
    }
    if (thread.name.rfind("iou-wrk-", 0) == 0) ++workers;
    ++others;
    EXPECT_EQ(thread.cpus, other_cpus) << thread.name;
  }
  EXPECT_EQ(reactors, 1);
  EXPECT_GE(workers, 1) << "no io_uring worker seen after a fdatasync";
  EXPECT_GE(others, 2) << "the main thread and a worker at least";
}

TEST(CpuPlacement, UnpinnedServerRestrictsNoThread) {
  const std::vector<int> cpus = runtime::allowed_cpus();
  ServerProcess server(standard_flags({"--cores=1"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (const ThreadPlacement& thread : threads_of(server.pid())) {
    EXPECT_EQ(thread.cpus, runtime::cpu_list(cpus)) << thread.name;
  }
}

}  // namespace
}  // namespace integration
