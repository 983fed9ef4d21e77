// Oversized and deeply nested input (issue 12 point 4): huge header counts, JSON nested
// 10,000 deep, 10,000 placements, a 64 KiB user.id, a 1 MB tracking URL. Each is refused
// by the bound docs/operations.md ("Limits") and docs/decision-request.md ("Bounds") give it,
// before it can cost more than that bound; the server stays up and serves a well-behaved
// client after each.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/abuse/abuse_checks.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration::abuse {
namespace {

// Connections sending the large heads at once: enough that memory per byte sent would show.
constexpr int kConcurrent = 20;
// Raised so that bodies past the default 64 KiB reach the decision request reader.
constexpr char kLargeBodies[] = "--max-body-bytes=1048576";

std::string nested(int depth, const std::string& open, const std::string& inner, const std::string& close) {
  std::string out;
  out.reserve(depth * (open.size() + close.size()) + inner.size());
  for (int i = 0; i < depth; ++i) out += open;
  out += inner;
  for (int i = 0; i < depth; ++i) out += close;
  return out;
}

std::optional<HttpReply> ask(const ServerProcess& server, const std::string& request) {
  RawConnection connection(server.public_port());
  EXPECT_TRUE(connection.send(request));
  std::optional<HttpReply> reply = connection.read_reply();
  EXPECT_TRUE(reply) << connection.last_error();
  return reply;
}

// Sends `request` on kConcurrent connections at once; each must be refused with
// status/code and closed, and memory meanwhile stays within what the header limit lets a
// connection hold.
void expect_refused_on_many(const ServerProcess& server, const std::string& request, int status, int code) {
  const ServerMemory memory(server);
  std::vector<RawConnection> connections;
  connections.reserve(kConcurrent);
  for (int i = 0; i < kConcurrent; ++i) {
    connections.emplace_back(server.public_port());
    // The server stops reading the head at its limit, answers, and discards the rest for
    // a while (a lingering close): the whole request goes out, or the close cuts it short.
    connections.back().send(request);
  }
  if (memory.measurable()) {
    EXPECT_TRUE(memory.StaysWithin(kConcurrent * (kHeaderLimit + kBytesPerConnection), "large heads"));
  }
  EXPECT_TRUE(WellBehavedClientIsServed(server)) << "while large heads are refused";
  for (RawConnection& connection : connections) EXPECT_TRUE(IsRefusalThenClose(connection, status, code));
  if (memory.measurable()) {
    EXPECT_TRUE(memory.StaysWithin(kConcurrent * (kHeaderLimit + kBytesPerConnection), "after large heads"));
  }
}

TEST(OversizedInput, TenThousandHeaderLinesAre431With10006ThenClosed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_TRUE(WellBehavedClientIsServed(server));
  std::string lines;
  for (int i = 0; i < 10'000; ++i) lines += "X-" + std::to_string(i) + ": v\r\n";
  expect_refused_on_many(server, get_request("/v1/vast", lines), 431, 10006);
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

TEST(OversizedInput, TrackingUrlOf1MBIs431With10006ThenClosed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_TRUE(WellBehavedClientIsServed(server));
  expect_refused_on_many(server, get_request("/v1/tracking?t=" + std::string(1'000'000, 'A')), 431, 10006);
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

// Nesting is bounded at 64 levels wherever it is (docs/decision-request.md): in a member
// the server reads, in one it keeps as text without reading (device), in one it ignores.
TEST(OversizedInput, JsonNestedTenThousandDeepIs400With10001) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  constexpr int kDepth = 10'000;
  const std::string placement = R"({"key":"home_top"})";
  const std::vector<std::pair<std::string, std::string>> bodies = {
      {"placements", R"({"placements":)" + nested(kDepth, "[", placement, "]") + "}"},
      {"targeting.custom", R"({"placements":[{"key":"home_top","targeting":{"custom":{"a":)" +
                               nested(kDepth, "[", "1", "]") + "}}}]}"},
      {"device", R"({"placements":[{"key":"home_top"}],"device":)" + nested(kDepth, R"({"a":)", "1", "}") + "}"},
      {"app", R"({"placements":[{"key":"home_top"}],"app":)" + nested(kDepth, "[", "", "]") + "}"},
      {"unknown member", R"({"placements":[{"key":"home_top"}],"extra":)" + nested(kDepth, "[", "", "]") + "}"},
      {"the root", nested(kDepth, "[", "", "]")},
  };
  for (const auto& [where, body] : bodies) {
    SCOPED_TRACE(where);
    ASSERT_LT(body.size(), 64 * kKiB) << "within the default body limit: the nesting is what is refused";
    const std::optional<HttpReply> reply = ask(server, post_request("/v1/decision", body));
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 400);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply->body, {{10001, ""}})) << reply->body;
    EXPECT_NE(reply->body.find("deeper than 64 levels"), std::string::npos) << reply->body;
  }
  // Never closed: the nesting, not the framing, was wrong.
  const std::optional<HttpReply> unclosed =
      ask(server, post_request("/v1/decision", R"({"placements":[{"key":"home_top"}],"device":)" +
                                                   std::string(kDepth, '[')));
  ASSERT_TRUE(unclosed);
  EXPECT_EQ(unclosed->status, 400);
  EXPECT_TRUE(IsErrorEnvelopeListing(unclosed->body, {{10001, ""}})) << unclosed->body;
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

std::string placements_body(int count) {
  std::string body = R"({"placements":[)";
  for (int i = 0; i < count; ++i) body += std::string(i == 0 ? "" : ",") + R"({"key":"home_top"})";
  return body + "]}";
}

TEST(OversizedInput, TenThousandPlacementsAre413With10003AtTheDefaultBodyLimit) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string body = placements_body(10'000);
  ASSERT_GT(body.size(), 64 * kKiB);
  RawConnection connection(server.public_port());
  // The head alone: the length announced is enough to refuse.
  ASSERT_TRUE(connection.send(post_request("/v1/decision", body).substr(0, post_request("/v1/decision", body).find("\r\n\r\n") + 4)));
  EXPECT_TRUE(IsRefusalThenClose(connection, 413, 10003));
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

TEST(OversizedInput, TenThousandPlacementsWithinARaisedBodyLimitAre422With10010) {
  ServerProcess server(standard_flags({kLargeBodies}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::optional<HttpReply> reply = ask(server, post_request("/v1/decision", placements_body(10'000)));
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 422);
  // One error for the array, not one per placement past the 20th.
  EXPECT_TRUE(IsErrorEnvelopeListing(reply->body, {{10010, "placements"}})) << reply->body;
  EXPECT_FALSE(reply->closes_connection());
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

std::string user_id_body(size_t id_bytes) {
  return R"({"placements":[{"key":"home_top"}],"user":{"id":")" + std::string(id_bytes, 'u') + R"("}})";
}

TEST(OversizedInput, UserIdOf64KiBIs413With10003AtTheDefaultBodyLimit) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  connection.send(post_request("/v1/decision", user_id_body(64 * kKiB)));
  EXPECT_TRUE(IsRefusalThenClose(connection, 413, 10003));
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

// user.id is at most 256 bytes (docs/decision-request.md): it keys the frequency-cap
// store, whose memory a client must not choose. Within a raised body limit a 64 KiB id is
// the field's 422, and the bound is exact.
TEST(OversizedInput, UserIdOver256BytesIs422With10020AtUserId) {
  ServerProcess server(standard_flags({kLargeBodies}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (const size_t bytes : {size_t{64 * kKiB}, size_t{257}}) {
    SCOPED_TRACE(bytes);
    const std::optional<HttpReply> reply = ask(server, post_request("/v1/decision", user_id_body(bytes)));
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 422);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply->body, {{10020, "user.id"}})) << reply->body;
  }
  const std::optional<HttpReply> at_bound = ask(server, post_request("/v1/decision", user_id_body(256)));
  ASSERT_TRUE(at_bound);
  EXPECT_EQ(at_bound->status, 200) << at_bound->body;
  EXPECT_TRUE(WellBehavedClientIsServed(server));
}

}  // namespace
}  // namespace integration::abuse
