// The harness itself: a server that dies before its test ends, or leaves a sanitizer's
// report on stderr, fails the test even when every request of it was answered.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

// Generous: SIGKILL ends a process at once; reached only when something is wrong.
constexpr std::chrono::milliseconds kKillTimeout{10000};

// Whether the process has ended within timeout. It is left unreaped (WNOWAIT), so the
// harness still finds the exit itself when the test lets the server go.
bool ended_unreaped(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    // Polling interval only; the deadline is the bound.
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

TEST(ServerProcessHarness, AServerThatDiesBeforeItsTestEndsFailsTheTest) {
  EXPECT_NONFATAL_FAILURE(
      {
        ServerProcess server(standard_flags());
        ASSERT_TRUE(server.serving()) << server.start_error();
        ::kill(server.pid(), SIGKILL);
        // Not reaped here: the harness finds the exit when the test lets the server go.
        ASSERT_TRUE(ended_unreaped(server.pid(), kKillTimeout)) << "still running after SIGKILL";
      },
      "decisiond ended before the test did");
}

TEST(ServerProcessHarness, AServerTheTestKillsItselfIsNoFailure) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  server.send_signal(SIGKILL);
  // Ended before the harness looks, so it finds an exit the test asked for, not a server to kill.
  ASSERT_TRUE(ended_unreaped(server.pid(), kKillTimeout)) << "still running after SIGKILL";
}

}  // namespace
}  // namespace integration
