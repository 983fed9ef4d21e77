// Slow clients (issue 12 point 4): slowloris, headers a byte a second, and bodies that
// never finish. --request-timeout runs from a request's first byte to its last, so each
// ends with 408 10008 and a close however it trickles; everyone else is served meanwhile,
// and what the slow connections hold stays within the header and body limits.
// (limits_test.cc has one connection trickling; here there are hundreds at once.)
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/abuse/abuse_checks.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/server_process.h"

namespace integration::abuse {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr int kSlowConnections = 200;
constexpr char kRequestTimeout[] = "--request-timeout=3s";
constexpr auto kRequestTimeoutTime = seconds(3);
// Past the timeout, how long the test waits for the 408s: only reached when one is missing.
constexpr auto kGrace = seconds(10);
constexpr uint64_t kBodyLimit = 64 * kKiB;

// Every second until each connection has its reply: one more byte on each connection
// still waiting, and a decision from a well-behaved client, which must be served.
// Returns the number of connections that got no reply.
int trickle_until_answered(const ServerProcess& server, std::vector<RawConnection>& slow, char byte,
                           std::vector<std::optional<HttpReply>>& replies) {
  replies.assign(slow.size(), std::nullopt);
  const auto deadline = Clock::now() + kRequestTimeoutTime + kGrace;
  size_t answered = 0;
  while (answered < slow.size() && Clock::now() < deadline) {
    const auto round_started = Clock::now();
    for (size_t i = 0; i < slow.size(); ++i) {
      if (replies[i]) continue;
      slow[i].send(std::string(1, byte));  // false once the server has answered and closed
    }
    EXPECT_TRUE(WellBehavedClientIsServed(server)) << "while slow clients trickle";
    // A glance at each (RawConnection polls in whole milliseconds, so 2 is at least 1).
    for (size_t i = 0; i < slow.size(); ++i) {
      if (replies[i]) continue;
      replies[i] = slow[i].read_reply(milliseconds(2));
      if (replies[i]) ++answered;
    }
    std::this_thread::sleep_until(round_started + seconds(1));
  }
  // Whatever is still missing gets one last chance to arrive.
  for (size_t i = 0; i < slow.size(); ++i) {
    if (!replies[i]) replies[i] = slow[i].read_reply(milliseconds(500));
  }
  int missing = 0;
  for (const auto& reply : replies) missing += reply ? 0 : 1;
  return missing;
}

// Every reply is 408 10008 with Connection: close, and then the server closes.
void expect_all_408_then_closed(std::vector<RawConnection>& slow, const std::vector<std::optional<HttpReply>>& replies) {
  int wrong = 0;
  int unclosed = 0;
  std::string first;
  for (size_t i = 0; i < slow.size(); ++i) {
    const std::optional<HttpReply>& reply = replies[i];
    const bool right = reply && reply->status == 408 && IsErrorEnvelope(reply->body, 10008) && reply->closes_connection();
    if (!right && wrong++ == 0) first = reply ? reply->raw : "no reply: " + slow[i].last_error();
    if (!slow[i].wait_for_close()) ++unclosed;
  }
  EXPECT_EQ(wrong, 0) << "of " << slow.size() << "; first: " << first;
  EXPECT_EQ(unclosed, 0) << "of " << slow.size();
}

TEST(SlowClients, HeadersAtAByteASecondAre408With10008WhileOthersAreServed) {
  ServerProcess server(standard_flags({kRequestTimeout}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_TRUE(WellBehavedClientIsServed(server));
  const ServerMemory memory(server);

  std::vector<RawConnection> slow;
  slow.reserve(kSlowConnections);
  const auto started = Clock::now();
  for (int i = 0; i < kSlowConnections; ++i) {
    slow.emplace_back(server.public_port());
    // A head that never ends: one header value growing a byte a second.
    ASSERT_TRUE(slow.back().send("GET /v1/vast HTTP/1.1\r\nHost: decisiond.test\r\nX-Slow: ")) << i;
  }
  std::vector<std::optional<HttpReply>> replies;
  EXPECT_EQ(trickle_until_answered(server, slow, 'a', replies), 0) << "connections with no 408";
  const auto waited = Clock::now() - started;
  expect_all_408_then_closed(slow, replies);
  // The rule, with generous room: no trickle outlives the timeout by much.
  EXPECT_LE(waited, kRequestTimeoutTime + kGrace);
  if (memory.measurable()) {
    EXPECT_TRUE(memory.StaysWithin(kSlowConnections * (kHeaderLimit + kBytesPerConnection), "slow headers"));
  }
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

TEST(SlowClients, BodiesThatNeverFinishAre408With10008WhileOthersAreServed) {
  ServerProcess server(standard_flags({kRequestTimeout}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_TRUE(WellBehavedClientIsServed(server));
  const ServerMemory memory(server);

  // Each announces the largest body the server takes and sends all but 4 KiB of it, so
  // the server holds about 60 KiB per connection; then a byte a second, never the end.
  const std::string head =
      "POST /v1/decision HTTP/1.1\r\nHost: decisiond.test\r\nContent-Type: application/json\r\n"
      "Content-Length: " + std::to_string(kBodyLimit) + "\r\n\r\n";
  const std::string most_of_the_body(kBodyLimit - 4 * kKiB, ' ');
  std::vector<RawConnection> slow;
  slow.reserve(kSlowConnections);
  for (int i = 0; i < kSlowConnections; ++i) {
    slow.emplace_back(server.public_port());
    ASSERT_TRUE(slow.back().send(head + most_of_the_body)) << i;
  }
  EXPECT_TRUE(WellBehavedClientIsServed(server)) << "while every slow body is held";
  if (memory.measurable()) {
    EXPECT_TRUE(memory.StaysWithin(kSlowConnections * (kBodyLimit + kBytesPerConnection), "unfinished bodies"));
  }
  std::vector<std::optional<HttpReply>> replies;
  EXPECT_EQ(trickle_until_answered(server, slow, ' ', replies), 0) << "connections with no 408";
  expect_all_408_then_closed(slow, replies);
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

}  // namespace
}  // namespace integration::abuse
