// A connection's life holds in Release (runtime/check.h): released once per use, and a send
// completes only after one was made. Broken, the pool would hand one connection to two
// clients, or count bytes of a send that never was.
#include <gtest/gtest.h>

#include "http/connection.h"
#include "http/server.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"

namespace http {
namespace {

struct IdleServer {
  runtime::Mailbox mailbox{1};
  runtime::ManualClock clock;
  runtime::Reactor reactor{0, mailbox, clock, runtime::ReactorConfig{}};
  Router router;
  Server server{reactor, router, HttpLimits{}};
};

TEST(ConnectionDeathTest, ReleasingAConnectionNotInUseStops) {
  IdleServer idle;
  Connection connection(idle.server);
  EXPECT_DEATH(connection.on_released(), "check failed: .*connection released twice");
}

TEST(ConnectionDeathTest, ASendCompletionWithoutASendStops) {
  IdleServer idle;
  Connection connection(idle.server);
  EXPECT_DEATH(connection.on_send_complete(10), "check failed: .*send completed that was never made");
}

}  // namespace
}  // namespace http
