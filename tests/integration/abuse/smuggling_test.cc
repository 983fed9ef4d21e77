// Request smuggling (issue 12 point 4): framing that two parsers could read two ways is
// refused with 400 10007 and the connection closed, and the bytes after it are never read
// as a request. Each request carries a smuggled second request for a path no route serves:
// had the server read it, it would have answered 404 and counted it in
// decisiond_http_requests_total{status="404"}, which must stay at zero (the control test
// shows the trace appears when the first request is well framed). docs/errors.md lists
// the rules; two equal Content-Lengths are refused too.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/abuse/abuse_checks.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration::abuse {
namespace {

constexpr char kSmuggled[] = "GET /smuggled-by-the-abuse-test HTTP/1.1\r\nHost: decisiond.test\r\n\r\n";
constexpr char kBody[] = R"({"placements":[{"key":"home_top"}]})";
const std::string kBodyLength = std::to_string(sizeof(kBody) - 1);
constexpr char kHead[] = "POST /v1/decision HTTP/1.1\r\nHost: decisiond.test\r\nContent-Type: application/json\r\n";

class Smuggling : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.serving()) << server_.start_error();
    ASSERT_EQ(public_404_count(server_), 0);
  }

  // Each request, with the smuggled one after it, on a connection of its own: 400 10007,
  // closed, nothing more sent; then no 404 was ever counted and others are still served.
  void expect_refused_and_nothing_smuggled(const std::vector<std::string>& requests) {
    for (const std::string& request : requests) {
      SCOPED_TRACE(request);
      RawConnection connection(server_.public_port());
      ASSERT_TRUE(connection.send(request + kSmuggled));
      EXPECT_TRUE(IsRefusalThenClose(connection, 400, 10007));
    }
    EXPECT_EQ(public_404_count(server_), 0) << "a smuggled request was read";
    EXPECT_TRUE(WellBehavedClientIsServed(server_));
  }

  ServerProcess server_{standard_flags()};
};

TEST_F(Smuggling, ControlTheSmuggledRequestLeavesA404WhenTheFirstIsWellFramed) {
  RawConnection connection(server_.public_port());
  ASSERT_TRUE(connection.send(std::string(kHead) + "Content-Length: " + kBodyLength + "\r\n\r\n" + kBody + kSmuggled));
  const std::optional<HttpReply> first = connection.read_reply();
  ASSERT_TRUE(first) << connection.last_error();
  EXPECT_EQ(first->status, 200);
  const std::optional<HttpReply> second = connection.read_reply();
  ASSERT_TRUE(second) << connection.last_error();
  EXPECT_EQ(second->status, 404);
  EXPECT_EQ(public_404_count(server_), 1);
}

TEST_F(Smuggling, ContentLengthWithTransferEncodingIs400With10007ThenClosed) {
  expect_refused_and_nothing_smuggled({
      std::string(kHead) + "Content-Length: " + kBodyLength + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(kBody) +
          std::string(kLastChunk),
      std::string(kHead) + "Transfer-Encoding: chunked\r\nContent-Length: " + kBodyLength + "\r\n\r\n" + chunk(kBody) +
          std::string(kLastChunk),
      // The TE.CL classic: a front end that takes the length forwards the "0" chunk and the rest.
      std::string(kHead) + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n5c\r\n",
  });
}

TEST_F(Smuggling, TwoDifferentContentLengthsAre400With10007ThenClosed) {
  expect_refused_and_nothing_smuggled({
      std::string(kHead) + "Content-Length: " + kBodyLength + "\r\nContent-Length: 0\r\n\r\n" + kBody,
      std::string(kHead) + "Content-Length: 0\r\nContent-Length: " + kBodyLength + "\r\n\r\n" + kBody,
  });
}

// RFC 9112 section 6.3 lets a server take equal values as one; we refuse them like any
// repeated Content-Length (docs/errors.md): no client of ours sends two, and a proxy in
// front may not agree on what they mean.
TEST_F(Smuggling, TwoEqualContentLengthsAreRefusedToo) {
  expect_refused_and_nothing_smuggled({
      std::string(kHead) + "Content-Length: " + kBodyLength + "\r\nContent-Length: " + kBodyLength + "\r\n\r\n" + kBody,
      std::string(kHead) + "Content-Length: " + kBodyLength + ", " + kBodyLength + "\r\n\r\n" + kBody,
  });
}

TEST_F(Smuggling, ObsFoldIs400With10007ThenClosed) {
  expect_refused_and_nothing_smuggled({
      std::string(kHead) + "X-Folded: a\r\n b\r\nContent-Length: " + kBodyLength + "\r\n\r\n" + kBody,
      std::string(kHead) + "X-Folded: a\r\n\tb\r\nContent-Length: " + kBodyLength + "\r\n\r\n" + kBody,
      // A folded length: unfolded it frames the body, read as a new line it is garbage.
      std::string(kHead) + "Content-Length:\r\n " + kBodyLength + "\r\n\r\n" + kBody,
      // Whitespace before the first header line hides it from one reader (RFC 9112 2.2).
      "POST /v1/decision HTTP/1.1\r\n Transfer-Encoding: chunked\r\nHost: decisiond.test\r\nContent-Type: "
      "application/json\r\nContent-Length: " + kBodyLength + "\r\n\r\n" + kBody,
  });
}

TEST_F(Smuggling, BareLfLineEndsAre400With10007ThenClosed) {
  const std::string chunked_head = std::string(kHead) + "Transfer-Encoding: chunked\r\n\r\n";
  const std::string size = chunk(kBody).substr(0, chunk(kBody).find('\r'));
  expect_refused_and_nothing_smuggled({
      // After the request line, after a header line, ending the head, everywhere.
      "POST /v1/decision HTTP/1.1\nHost: decisiond.test\r\nContent-Type: application/json\r\nContent-Length: " +
          kBodyLength + "\r\n\r\n" + kBody,
      std::string(kHead) + "X-A: b\nContent-Length: " + kBodyLength + "\r\n\r\n" + kBody,
      std::string(kHead) + "Content-Length: " + kBodyLength + "\r\n\n" + kBody,
      "POST /v1/decision HTTP/1.1\nHost: decisiond.test\nContent-Type: application/json\nContent-Length: " +
          kBodyLength + "\n\n" + kBody,
      // In chunked framing: a chunk-size line, the line after the data, the trailers' end.
      chunked_head + size + "\n" + kBody + "\r\n" + std::string(kLastChunk),
      chunked_head + size + "\r\n" + kBody + "\n" + std::string(kLastChunk),
      chunked_head + chunk(kBody) + "0\r\n\n",
      chunked_head + chunk(kBody) + "0\r\nX-Trailer: a\n\r\n",
      // A bare CR, and a chunk-size line whose CR is followed by something else.
      std::string(kHead) + "X-A: b\rContent-Length: " + kBodyLength + "\r\n\r\n" + kBody,
      chunked_head + size + "\rX" + kBody + "\r\n" + std::string(kLastChunk),
  });
}

TEST_F(Smuggling, TransferEncodingNotEndingInChunkedIs400With10007ThenClosed) {
  expect_refused_and_nothing_smuggled({
      std::string(kHead) + "Transfer-Encoding: gzip\r\n\r\n" + kBody,
      std::string(kHead) + "Transfer-Encoding: chunked, gzip\r\n\r\n" + chunk(kBody) + std::string(kLastChunk),
      std::string(kHead) + "Transfer-Encoding: identity\r\n\r\n" + kBody,
      std::string(kHead) + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(kBody) +
          std::string(kLastChunk),
  });
}

TEST_F(Smuggling, ChunkSizeOverflowIs400With10007ThenClosed) {
  const std::string chunked_head = std::string(kHead) + "Transfer-Encoding: chunked\r\n\r\n";
  expect_refused_and_nothing_smuggled({
      // 2^64 + 0x23: wrapped to 64 bits it would frame exactly the body.
      chunked_head + "10000000000000023\r\n" + kBody + "\r\n" + std::string(kLastChunk),
      chunked_head + "ffffffffffffffffffffffffffffffff\r\n" + kBody + "\r\n" + std::string(kLastChunk),
  });
}

}  // namespace
}  // namespace integration::abuse
