// Outgoing connections, precise wakes and cancellation through a core's ring
// (runtime/reactor.h connect, wake_after, cancel): each completes on the reactor's thread
// with the caller's tag.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"
#include "tests/unit/runtime/reactor_test_loop.h"

namespace runtime {
namespace {

using testing::Completions;
using testing::Deadline;
using testing::small_reactor;

class ReactorAsyncTest : public ::testing::Test {
 protected:
  ReactorAsyncTest() : mailbox_(1), reactor_(0, mailbox_, SystemClock::instance(), small_reactor()) {}
  void SetUp() override { ASSERT_TRUE(reactor_.init().ok()); }
  bool run() {
    Deadline deadline(reactor_);
    reactor_.run();
    return !deadline.expired;
  }

  Mailbox mailbox_;
  Reactor reactor_;
};

// A loopback listener on a free port; its address as connect() takes it.
struct LoopbackListener {
  LoopbackListener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
         ::listen(fd, 4) == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  }
  ~LoopbackListener() {
    if (fd >= 0) ::close(fd);
  }
  int fd = -1;
  sockaddr_in address{};
  bool ok = false;
};

TEST_F(ReactorAsyncTest, ConnectReachesALoopbackListener) {
  LoopbackListener listener;
  ASSERT_TRUE(listener.ok);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  Completions done(reactor_, 1);
  reactor_.connect(fd, reinterpret_cast<const sockaddr*>(&listener.address), sizeof(listener.address), done, 7);
  ASSERT_TRUE(run());
  ASSERT_EQ(done.seen.size(), 1u);
  EXPECT_EQ(done.seen[0], std::make_pair(uint8_t{7}, 0));
  const int accepted = ::accept4(listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
  EXPECT_GE(accepted, 0);
  if (accepted >= 0) ::close(accepted);
  ::close(fd);
}

TEST_F(ReactorAsyncTest, ConnectToAClosedPortFailsWithConnectionRefused) {
  sockaddr_in address{};
  {
    LoopbackListener taken;  // a port that was free a moment ago and has no listener now
    ASSERT_TRUE(taken.ok);
    address = taken.address;
  }
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  Completions done(reactor_, 1);
  reactor_.connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address), done, 3);
  ASSERT_TRUE(run());
  ASSERT_EQ(done.seen.size(), 1u);
  EXPECT_EQ(done.seen[0], std::make_pair(uint8_t{3}, -ECONNREFUSED));
  ::close(fd);
}

TEST_F(ReactorAsyncTest, AWakeFiresAfterTheTimeAsked) {
  Completions done(reactor_, 1);
  const __kernel_timespec twenty_ms{.tv_sec = 0, .tv_nsec = 20'000'000};
  const int64_t asked_ns = reactor_.clock().monotonic_ns();
  reactor_.wake_after(twenty_ms, done, 9);
  ASSERT_TRUE(run());
  ASSERT_EQ(done.seen.size(), 1u);
  EXPECT_EQ(done.seen[0], std::make_pair(uint8_t{9}, -ETIME));
  EXPECT_GE(done.at_ns[0] - asked_ns, 20'000'000);
}

TEST_F(ReactorAsyncTest, ACancelledWakeCompletesWithECanceled) {
  Completions done(reactor_, 2);
  const __kernel_timespec long_wait{.tv_sec = 60, .tv_nsec = 0};
  const __kernel_timespec short_wait{.tv_sec = 0, .tv_nsec = 1'000'000};
  reactor_.wake_after(long_wait, done, 1);
  reactor_.wake_after(short_wait, done, 2);
  reactor_.cancel(done, 1);
  ASSERT_TRUE(run());
  ASSERT_EQ(done.seen.size(), 2u);
  for (const auto& [tag, result] : done.seen) EXPECT_EQ(result, tag == 1 ? -ECANCELED : -ETIME) << int{tag};
}

}  // namespace
}  // namespace runtime
