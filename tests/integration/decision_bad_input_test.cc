// Requests POST /v1/decision refuses (docs/errors.md, docs/decision-request.md): 415
// 10002 for a media type other than application/json, 400 10001 for a body that is not a
// JSON object, 422 listing every validation error with its JSON path. Every one uses the
// error envelope and still echoes the version it was read under.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

constexpr char kValidRequest[] = R"({"placements":[{"key":"home_top"}]})";

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(server_.serving()) << server_.start_error(); }

  ServerProcess server_{standard_flags()};
  DecisionClient client_{server_};
};

TEST_F(BadInput, MediaTypeOtherThanJsonIs415With10002) {
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded", "application/jsonx",
                           "application/json-patch+json", "text/json", "application"}) {
    SCOPED_TRACE(type);
    const CurlReply reply = client_.decide(kValidRequest, {.version = "2025-11-01", .content_type = type});
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_EQ(reply.status, 415);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10002, ""}}));
    EXPECT_EQ(reply.header("X-Decision-Version"), "2025-11-01") << "past the version check, replies echo it";
  }
}

TEST_F(BadInput, MissingContentTypeIs415With10002) {
  const CurlReply reply = client_.decide(kValidRequest, {.content_type = std::nullopt});
  EXPECT_EQ(reply.status, 415);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10002, ""}}));
  EXPECT_EQ(reply.header("X-Decision-Version"), "2025-01-01");

  // The same on the wire, with no Content-Type line at all.
  RawConnection connection(server_.public_port());
  ASSERT_TRUE(connection.send("POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                              std::to_string(sizeof(kValidRequest) - 1) + "\r\n\r\n" + kValidRequest));
  const std::optional<HttpReply> raw = connection.read_reply();
  ASSERT_TRUE(raw) << connection.last_error();
  EXPECT_EQ(raw->status, 415);
  EXPECT_TRUE(IsErrorEnvelopeListing(raw->body, {{10002, ""}}));
}

TEST_F(BadInput, JsonMediaTypeInAnyCaseAndWithParametersIsAccepted) {
  for (const char* type : {"application/json", "APPLICATION/JSON", "Application/Json; charset=utf-8",
                           "application/json ; charset=UTF-8"}) {
    SCOPED_TRACE(type);
    const CurlReply reply = client_.decide(kValidRequest, {.content_type = type});
    EXPECT_EQ(reply.status, 200) << reply.body;
  }
}

TEST_F(BadInput, BodyThatIsNotJsonIs400With10001) {
  for (const char* body : {"", "{", R"({"placements":[{"key":"home_top"}])", R"({"placements":[{"key":'home_top'}]})",
                           "{\"placements\":[]} trailing", "nul"}) {
    SCOPED_TRACE(body);
    const CurlReply reply = client_.decide(body, {.version = "2025-11-01"});
    EXPECT_EQ(reply.status, 400);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10001, ""}}));
    EXPECT_EQ(reply.header("X-Decision-Version"), "2025-11-01");
  }
}

TEST_F(BadInput, JsonThatIsNotAnObjectIs400With10001) {
  for (const char* body : {"[]", "null", "42", R"("placements")", R"([{"placements":[{"key":"home_top"}]}])"}) {
    SCOPED_TRACE(body);
    const CurlReply reply = client_.decide(body);
    EXPECT_EQ(reply.status, 400);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10001, ""}}));
  }
}

TEST_F(BadInput, EveryValidationErrorIsListedIn422WithItsPath) {
  const CurlReply reply = client_.decide(
      R"({"placements":[{"key":"home_top","count":0},{"count":2},)"
      R"({"key":"x","count":11,"advertiserId":"advertiser_042","templateId":"tmpl_3"}],)"
      R"("user":{"ip":"999.1.1.1"},"device":"phone"})",
      {.version = "2025-11-01"});
  EXPECT_EQ(reply.status, 422);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10013, "placements[0].count"},
                                                  {10012, "placements[1].key"},
                                                  {10013, "placements[2].count"},
                                                  {10014, "placements[2].advertiserId"},
                                                  {10015, "placements[2].templateId"},
                                                  {10020, "user.ip"},
                                                  {10021, "device"}}));
  EXPECT_EQ(reply.header("X-Decision-Version"), "2025-11-01");
}

TEST_F(BadInput, PlacementsMissingEmptyOrTooManyIs422With10010) {
  std::string twenty_one = R"({"placements":[)";
  for (int i = 0; i < 21; ++i) twenty_one += std::string(i ? "," : "") + R"({"key":"home_top"})";
  twenty_one += "]}";
  for (const std::string& body : {std::string("{}"), std::string(R"({"placements":[]})"),
                                  std::string(R"({"placements":{"key":"home_top"}})"), twenty_one}) {
    SCOPED_TRACE(body.substr(0, 60));
    const CurlReply reply = client_.decide(body);
    EXPECT_EQ(reply.status, 422);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10010, "placements"}}));
  }
}

TEST_F(BadInput, TargetingAndFormatErrorsCarryTheirPaths) {
  const CurlReply reply = client_.decide(
      R"({"placements":[{"key":"home_top","format":"banner",)"
      R"("targeting":{"geo":[2988507,-1],"location":[{"lat":91,"lon":0}],"custom":{"tier":{"nested":1}}}}]})",
      {.version = "2025-11-01"});
  EXPECT_EQ(reply.status, 422);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10016, "placements[0].format"},
                                                  {10017, "placements[0].targeting.geo[1]"},
                                                  {10018, "placements[0].targeting.location[0].lat"},
                                                  {10019, "placements[0].targeting.custom.tier"}}));
}

// A refused request leaves the connection serving: the next one on it is answered.
TEST_F(BadInput, ConnectionServesTheNextRequestAfterEachRefusal) {
  RawConnection connection(server_.public_port());
  const std::string requests[] = {
      post_request("/v1/decision", "{"),
      post_request("/v1/decision", R"({"placements":[]})"),
      "POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}",
      post_request("/v1/decision", "{}", "X-Decision-Version: latest\r\n"),
      post_request("/v1/decision", kValidRequest),
  };
  const int statuses[] = {400, 422, 415, 400, 200};
  ASSERT_TRUE(connection.send(requests[0] + requests[1] + requests[2] + requests[3] + requests[4]));
  for (int i = 0; i < 5; ++i) {
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << "reply " << i << ": " << connection.last_error();
    EXPECT_EQ(reply->status, statuses[i]) << reply->body;
    EXPECT_TRUE(HasDateAndContentLength(*reply));
    EXPECT_FALSE(reply->closes_connection());
  }
}

}  // namespace
}  // namespace integration
