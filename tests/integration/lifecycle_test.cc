// Process life: SIGTERM and SIGINT stop accepting, finish what is in flight and exit 0;
// SIGHUP does not stop the server; a request that never completes does not hold the
// exit past --drain-timeout; a listener that cannot be opened is exit 1.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// Below the default --drain-timeout (5s): an exit this quick was not held up by the
// connections that were open.
constexpr milliseconds kPromptExit{3000};

// The server has begun draining once its public port refuses connections: the listeners
// are closed in the same step that starts the drain.
bool wait_until_refused(uint16_t port, milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    RawConnection probe(port);
    if (!probe.connected() && probe.connect_errno() == ECONNREFUSED) return true;
    // Polling interval only; the deadline is the bound.
    std::this_thread::sleep_for(milliseconds(10));
  }
  return false;
}

// A listening socket that decisiond cannot share (no SO_REUSEPORT); its port.
struct OccupiedPort {
  OccupiedPort() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 && ::listen(fd, 16) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
      port = ntohs(address.sin_port);
    }
  }
  ~OccupiedPort() { ::close(fd); }
  int fd = -1;
  uint16_t port = 0;
};

TEST(Lifecycle, SigtermWithIdleKeepAliveConnectionExitsZeroPromptly) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/vast")));
  ASSERT_TRUE(connection.read_reply()) << connection.last_error();

  server.send_signal(SIGTERM);
  const std::optional<ExitStatus> exit = server.wait_for_exit(kPromptExit);
  ASSERT_TRUE(exit) << "still running " << kPromptExit.count() << " ms after SIGTERM; stderr: " << server.stderr_text();
  EXPECT_EQ(exit->code, 0) << exit->describe() << "; stderr: " << server.stderr_text();
  EXPECT_TRUE(connection.wait_for_close(milliseconds(1000)));
  EXPECT_EQ(connection.unread(), "") << "an idle connection is closed without a reply";
}

TEST(Lifecycle, SigtermFinishesTheRequestInFlightWithConnectionClose) {
  ServerProcess server(standard_flags({"--cores=1"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  // The head asks for 100 Continue, whose arrival proves the server has read it: a request
  // the server has not seen yet is not in flight (its connection is idle and closed).
  const std::string request = post_request("/v1/decision", R"({"placements":[{"key":"slot"}]})",
                                           "Expect: 100-continue\r\n");
  const size_t head_end = request.find("\r\n\r\n") + 4;
  const size_t half = request.size() - 10;  // the head and part of the body
  ASSERT_TRUE(connection.send(request.substr(0, head_end)));
  const std::optional<HttpReply> interim = connection.read_reply_to_head();
  ASSERT_TRUE(interim) << connection.last_error();
  ASSERT_EQ(interim->status, 100);
  ASSERT_TRUE(connection.send(request.substr(head_end, half - head_end)));

  server.send_signal(SIGTERM);
  ASSERT_TRUE(wait_until_refused(server.public_port(), milliseconds(3000))) << "the server never began draining";
  ASSERT_TRUE(connection.send(request.substr(half)));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 200) << reply->body;
  DecisionReply decision;
  EXPECT_TRUE(ReadDecision(reply->body, decision));
  EXPECT_TRUE(reply->closes_connection()) << "the last reply of a draining server ends the connection";
  EXPECT_TRUE(connection.wait_for_close());

  const std::optional<ExitStatus> exit = server.wait_for_exit(kPromptExit);
  ASSERT_TRUE(exit) << "still running after the in-flight request was answered; stderr: " << server.stderr_text();
  EXPECT_EQ(exit->code, 0) << exit->describe();
}

TEST(Lifecycle, RequestThatNeverCompletesDoesNotHoldExitPastDrainTimeout) {
  ServerProcess server(standard_flags({"--cores=1", "--drain-timeout=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  // A whole request first, answered: the server has accepted the connection, so the
  // unfinished request below is in flight when the signal comes (not still in the
  // listen backlog, which shutdown would simply close).
  ASSERT_TRUE(connection.send(get_request("/v1/vast")));
  ASSERT_TRUE(connection.read_reply()) << connection.last_error();
  ASSERT_TRUE(connection.send("GET /v1/vast HTTP/1.1\r\nHost: t\r\n"));  // and nothing more

  const auto signalled = Clock::now();
  server.send_signal(SIGTERM);
  const std::optional<ExitStatus> exit = server.wait_for_exit(milliseconds(1000 + 3000));
  ASSERT_TRUE(exit) << "still running well past --drain-timeout; stderr: " << server.stderr_text();
  EXPECT_EQ(exit->code, 0) << exit->describe();
  // It did wait for the request, about --drain-timeout (a generous lower bound).
  EXPECT_GE(Clock::now() - signalled, milliseconds(500));
  EXPECT_TRUE(connection.wait_for_close(milliseconds(1000)));
}

TEST(Lifecycle, SigintExitsZero) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  server.send_signal(SIGINT);
  const std::optional<ExitStatus> exit = server.wait_for_exit(kPromptExit);
  ASSERT_TRUE(exit) << "still running after SIGINT; stderr: " << server.stderr_text();
  EXPECT_EQ(exit->code, 0) << exit->describe();
}

TEST(Lifecycle, SighupDoesNotStopTheServer) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  server.send_signal(SIGHUP);
  // Still serving after the signal was handled (the server logs it on stderr).
  CurlSession curl;
  const auto deadline = Clock::now() + milliseconds(3000);
  while (server.stderr_text().find("SIGHUP") == std::string::npos && Clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  EXPECT_FALSE(server.wait_for_exit(milliseconds(0))) << "exited on SIGHUP; stderr: " << server.stderr_text();
  const CurlReply reply = curl.get(server.admin_url("/healthz"));
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.status, 200);
}

TEST(Lifecycle, PublicPortInUseExitsOne) {
  OccupiedPort occupied;
  ASSERT_NE(occupied.port, 0);
  const FinishedRun run = run_to_exit(
      standard_flags({"--listen=127.0.0.1:" + std::to_string(occupied.port)}));
  ASSERT_TRUE(run.exit) << "started on a port in use; stderr: " << run.stderr_text;
  EXPECT_EQ(run.exit->code, 1) << run.exit->describe() << "; stderr: " << run.stderr_text;
  EXPECT_NE(run.stderr_text.find(" level=error component=main msg=\"cannot listen on --listen: "), std::string::npos)
      << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("--listen"), std::string::npos) << run.stderr_text;
}

TEST(Lifecycle, AdminPortInUseExitsOne) {
  OccupiedPort occupied;
  ASSERT_NE(occupied.port, 0);
  const FinishedRun run = run_to_exit(
      standard_flags({"--admin-listen=127.0.0.1:" + std::to_string(occupied.port)}));
  ASSERT_TRUE(run.exit) << "started on a port in use; stderr: " << run.stderr_text;
  EXPECT_EQ(run.exit->code, 1) << run.exit->describe() << "; stderr: " << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("--admin-listen"), std::string::npos) << run.stderr_text;
}

}  // namespace
}  // namespace integration
