// Pipelining: requests sent back to back without waiting are answered in order; replies
// that back up stop the server reading (bounded by max_output_backlog_bytes) and reading
// resumes when the client catches up; a client that keeps sending without ever reading
// is cut off once the held input passes max_input_backlog_bytes (256 KiB).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

// Small enough that a few replies fill the path to a client that is not reading.
constexpr int kTinyReceiveBuffer = 4096;

TEST(Pipelining, RequestsInOneWriteAreAnsweredInOrder) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  struct Kind {
    std::string request;
    int status;
    std::string body_mentions;  // tells replies of the same status apart
  };
  const Kind kinds[] = {
      {get_request("/v1/tracking"), 400, "10050"},
      {get_request("/v1/vast"), 403, "10052"},
      {post_request("/v1/decision", R"({"placements":[]})"), 422, "10010"},
      {get_request("/nope"), 404, "10004"},
      {"DELETE /v1/decision HTTP/1.1\r\nHost: t\r\n\r\n", 405, "10005"},
  };
  constexpr int kRequests = 20;
  std::string all;
  std::vector<const Kind*> sent;
  for (int i = 0; i < kRequests; ++i) {
    // Neighbours always differ, so any swap shows.
    const Kind& kind = kinds[(i * 3) % 5];
    all += kind.request;
    sent.push_back(&kind);
  }
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(all));  // one write
  for (int i = 0; i < kRequests; ++i) {
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << "reply " << i << ": " << connection.last_error();
    EXPECT_EQ(reply->status, sent[i]->status) << "reply " << i;
    EXPECT_NE(reply->body.find(sent[i]->body_mentions), std::string::npos) << "reply " << i << ": " << reply->body;
  }
  EXPECT_EQ(connection.unread(), "");
}

TEST(Pipelining, RepliesThatBackUpAreAllAnsweredOnceTheClientReads) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port(), "127.0.0.1", kTinyReceiveBuffer);
  // /metrics replies are about 6 KiB: 150 of them are far more than the 256 KiB output
  // backlog, so the server must stop reading and resume. /healthz between them shows order.
  constexpr int kPairs = 150;
  std::string all;
  for (int i = 0; i < kPairs; ++i) all += get_request("/metrics") + get_request("/healthz");
  ASSERT_TRUE(connection.send(all));  // small: fits the socket buffers without a read
  for (int i = 0; i < kPairs; ++i) {
    std::optional<HttpReply> metrics = connection.read_reply();
    ASSERT_TRUE(metrics) << "pair " << i << ": " << connection.last_error();
    EXPECT_EQ(metrics->status, 200);
    EXPECT_NE(metrics->body.find("decisiond_http_requests_total"), std::string::npos);
    std::optional<HttpReply> health = connection.read_reply();
    ASSERT_TRUE(health) << "pair " << i << ": " << connection.last_error();
    EXPECT_EQ(health->body, "ok\n") << "pair " << i;
  }
  EXPECT_EQ(connection.unread(), "");
}

TEST(Pipelining, ClientThatNeverReadsIsCutOffAfterTheInputBacklog) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port(), "127.0.0.1", kTinyReceiveBuffer);
  // 4 MiB of requests, far past the 256 KiB the server holds while its replies back up.
  std::string all;
  while (all.size() < (4u << 20)) all += get_request("/metrics");
  // The send fails (reset) or completes into kernel buffers; either way the server
  // must end the connection rather than hold the input or block for ever.
  connection.send(all);
  EXPECT_TRUE(connection.wait_for_close()) << "still open: the held input is not bounded";
  EXPECT_EQ(wait_for_metric(server, "decisiond_http_limit_hits_total",
                            {{"listener", "admin"}, {"limit", "pipeline_backlog"}}, 1),
            1);
}

TEST(Pipelining, ClientThatStopsReadingIsDroppedAfterTheIdleTimeout) {
  ServerProcess server(standard_flags({"--idle-timeout=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port(), "127.0.0.1", kTinyReceiveBuffer);
  // About 80 KiB of requests, under the 256 KiB input backlog, whose replies (about 6 KiB
  // each, some 12 MiB) overflow the kernel's send buffer (at most 4 MiB by default): the
  // server's send cannot finish while the client reads nothing.
  std::string all;
  for (int i = 0; i < 2000; ++i) all += get_request("/metrics");
  ASSERT_TRUE(connection.send(all));
  // Not read: a stuck send must not keep re-arming the idle timer for ever.
  EXPECT_EQ(wait_for_metric(server, "decisiond_http_limit_hits_total",
                            {{"listener", "admin"}, {"limit", "idle_timeout"}}, 1),
            1);
}

}  // namespace
}  // namespace integration
