// The reactor's socket accounting holds in Release (runtime/check.h): one send at a time
// per socket, since two in the ring may complete out of order and interleave their bytes.
#include <sys/socket.h>
#include <unistd.h>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"

namespace runtime {
namespace {

class IgnoringSocket final : public SocketEvents {
 public:
  void on_receive(std::string_view) override {}
  void on_peer_closed(int) override {}
  void on_send_complete(int) override {}
  void on_released() override {}
};

// Smaller than the other tests' reactors: a death test forks it.
ReactorConfig tiny_reactor() {
  ReactorConfig config;
  config.ring_entries = 16;
  config.recv_buffer_count = 4;
  config.recv_buffer_bytes = 256;
  config.max_sockets = 2;
  return config;
}

TEST(ReactorDeathTest, ASecondSendBeforeTheFirstCompletedStops) {
  // The child runs the test afresh up to the statement: its own ring, not a forked copy.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Mailbox mailbox(1);
  ManualClock clock;
  Reactor reactor(0, mailbox, clock, tiny_reactor());
  ASSERT_TRUE(reactor.init().ok());
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  IgnoringSocket events;
  const std::optional<SocketId> socket = reactor.attach(fds[0], events);
  ASSERT_TRUE(socket.has_value());
  reactor.send(*socket, "a", 1);
  EXPECT_DEATH(reactor.send(*socket, "b", 1), "check failed: .*a second send on a socket before the first completed");
  ::close(fds[1]);
}

}  // namespace
}  // namespace runtime
