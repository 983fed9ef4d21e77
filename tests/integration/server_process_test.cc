// The harness itself: a server that dies before its test ends, or leaves a sanitizer's
// report on stderr, fails the test even when every request of it was answered.
#include <signal.h>

#include <chrono>
#include <thread>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

TEST(ServerProcessHarness, AServerThatDiesBeforeItsTestEndsFailsTheTest) {
  EXPECT_NONFATAL_FAILURE(
      {
        ServerProcess server(standard_flags());
        ASSERT_TRUE(server.serving()) << server.start_error();
        ::kill(server.pid(), SIGKILL);
        // Not reaped here: the harness finds the exit when the test lets the server go.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
      },
      "decisiond ended before the test did");
}

TEST(ServerProcessHarness, AServerTheTestKillsItselfIsNoFailure) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  server.send_signal(SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace
}  // namespace integration
