// Request bodies with Content-Encoding gzip or zstd (docs/compression.md), sent as raw bytes:
// accepted whatever --compress says; a body that inflates past --max-body-bytes is 413 10003
// having decoded no more than the limit; a coding we do not read is 415 10002; a body that
// does not decode is 400 10001; each with its reason in details.reason, counted in /metrics,
// and the connection kept for the next request.
#include <chrono>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"
#include "tests/support/body_codings.h"

namespace integration {
namespace {

constexpr const char* kCodedDecision = R"({"placements":[{"key":"home_top","count":2}],"user":{"id":"coded-body"}})";

// An error envelope's one error: code and details.reason.
struct Refusal {
  int64_t code = 0;
  std::string reason;
};
Refusal refusal_of(const HttpReply& reply) {
  const JsonBody json(reply.body);
  if (!json.ok()) return {};
  const std::vector<simdjson::dom::element> errors = array_member(json.root(), "errors");
  if (errors.size() != 1) return {};
  Refusal refusal;
  refusal.code = int_member(errors[0], "code").value_or(0);
  const std::optional<simdjson::dom::element> details = member(errors[0], "details");
  if (details) refusal.reason = string_member(*details, "reason").value_or("");
  return refusal;
}

class CodedRequestBodies : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(server_.serving()) << server_.start_error(); }

  // POST /v1/decision with body coded as the header says, on the fixture's one connection.
  HttpReply post(const std::string& body, const std::string& content_encoding) {
    if (!connection_.connected()) {
      ADD_FAILURE() << "not connected";
      return {};
    }
    const std::string header = "Content-Encoding: " + content_encoding + "\r\n";
    EXPECT_TRUE(connection_.send(post_request("/v1/decision", body, header)));
    const std::optional<HttpReply> reply = connection_.read_reply();
    if (!reply) {
      ADD_FAILURE() << connection_.last_error();
      return {};
    }
    return *reply;
  }
  double metric(const std::string& name, const Labels& labels) {
    return sum_samples(scrape_metrics(server_), name, labels).value_or(-1);
  }

  // --compress left off: bodies are decoded all the same.
  ServerProcess server_{standard_flags({"--max-body-bytes=65536"})};
  RawConnection connection_{server_.public_port()};
};

TEST_F(CodedRequestBodies, GzipAndZstdBodiesAreDecidedLikePlainOnes) {
  const HttpReply gzip = post(test_support::zlib_gzip(kCodedDecision), "gzip");
  EXPECT_EQ(gzip.status, 200) << gzip.body;
  const HttpReply zstd = post(test_support::zstd_frame(kCodedDecision), "zstd");
  EXPECT_EQ(zstd.status, 200) << zstd.body;
  // As `zstd` writes from a pipe: no declared size, a checksum.
  const HttpReply streamed = post(test_support::zstd_stream_frame(kCodedDecision), "zstd");
  EXPECT_EQ(streamed.status, 200) << streamed.body;
  // No Accept-Encoding: the replies are not compressed (and --compress is off anyway).
  EXPECT_FALSE(gzip.header("Content-Encoding"));
  EXPECT_NE(gzip.body.find("\"success\":true"), std::string::npos) << gzip.body;
  EXPECT_EQ(metric("decisiond_http_coded_request_bodies_total",
                   {{"listener", "public"}, {"coding", "zstd"}, {"outcome", "decoded"}}),
            2.0);
}

TEST_F(CodedRequestBodies, TheDecodedBodyIsWhatTheHandlerReads) {
  // Valid gzip of invalid JSON: the decision endpoint's own 400 10001, not the decoder's.
  const HttpReply reply = post(test_support::zlib_gzip("{\"placements\":"), "gzip");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(refusal_of(reply).code, 10001);
  EXPECT_EQ(refusal_of(reply).reason, "") << reply.body;
}

TEST_F(CodedRequestBodies, AGzipBombIs413HavingDecodedAtMostTheLimit) {
  // 20 MiB of spaces inside a JSON string: about 20 KiB on the wire.
  const std::string inflated = "{\"placements\":\"" + std::string(20 << 20, ' ') + "\"}";
  const std::string bomb = test_support::zlib_gzip(inflated);
  ASSERT_LT(bomb.size(), 65536u);
  const auto started = std::chrono::steady_clock::now();
  const HttpReply reply = post(bomb, "gzip");
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(reply.status, 413) << reply.body;
  const Refusal refusal = refusal_of(reply);
  EXPECT_EQ(refusal.code, 10003);
  EXPECT_EQ(refusal.reason, "the body decodes to more than 65536 bytes");
  // Inflating all 20 MiB would take tens of milliseconds; 64 KiB take well under one. The
  // bound is loose: a loaded machine must not fail it.
  EXPECT_LT(took, std::chrono::milliseconds(2000));
  EXPECT_EQ(metric("decisiond_http_limit_hits_total", {{"listener", "public"}, {"limit", "decoded_body_bytes"}}), 1.0);
  // The body was read whole: the connection goes on.
  EXPECT_EQ(post(test_support::zlib_gzip(kCodedDecision), "gzip").status, 200);
}

TEST_F(CodedRequestBodies, AZstdBombIs413) {
  const std::string inflated(20 << 20, ' ');
  const HttpReply declared = post(test_support::zstd_frame(inflated), "zstd");
  EXPECT_EQ(declared.status, 413);
  EXPECT_EQ(refusal_of(declared).code, 10003);
  const HttpReply streamed = post(test_support::zstd_stream_frame(inflated), "zstd");
  EXPECT_EQ(streamed.status, 413);
  EXPECT_EQ(refusal_of(streamed).reason, "the body decodes to more than 65536 bytes");
  EXPECT_EQ(metric("decisiond_http_coded_request_bodies_total",
                   {{"listener", "public"}, {"coding", "zstd"}, {"outcome", "too_large"}}),
            2.0);
}

TEST_F(CodedRequestBodies, AnUnknownCodingIs415) {
  const HttpReply br = post(kCodedDecision, "br");
  EXPECT_EQ(br.status, 415);
  EXPECT_EQ(refusal_of(br).code, 10002);
  EXPECT_EQ(refusal_of(br).reason, "Content-Encoding must be gzip or zstd");
  const HttpReply stacked = post(test_support::zlib_gzip(kCodedDecision), "gzip, zstd");
  EXPECT_EQ(stacked.status, 415);
  EXPECT_EQ(refusal_of(stacked).reason, "one content coding at most: gzip or zstd, not several");
  EXPECT_EQ(metric("decisiond_http_coded_request_bodies_total",
                   {{"listener", "public"}, {"coding", "other"}, {"outcome", "unsupported"}}),
            2.0);
  EXPECT_EQ(post(kCodedDecision, "identity").status, 200);
}

TEST_F(CodedRequestBodies, ABodyThatDoesNotDecodeIs400) {
  const std::string gzip = test_support::zlib_gzip(kCodedDecision);
  const HttpReply truncated = post(gzip.substr(0, gzip.size() - 6), "gzip");
  EXPECT_EQ(truncated.status, 400);
  EXPECT_EQ(refusal_of(truncated).code, 10001);
  EXPECT_EQ(refusal_of(truncated).reason, "gzip: corrupt or truncated data");
  const HttpReply plain_as_zstd = post(kCodedDecision, "zstd");
  EXPECT_EQ(plain_as_zstd.status, 400);
  EXPECT_EQ(refusal_of(plain_as_zstd).code, 10001);
  EXPECT_EQ(refusal_of(plain_as_zstd).reason, "zstd: not a zstd frame");
  const std::string frame = test_support::zstd_stream_frame(kCodedDecision);
  const HttpReply cut = post(frame.substr(0, frame.size() - 3), "zstd");
  EXPECT_EQ(cut.status, 400);
  EXPECT_EQ(refusal_of(cut).reason, "zstd: truncated data");
  EXPECT_EQ(post(gzip, "gzip").status, 200) << "the connection goes on";
}

}  // namespace
}  // namespace integration
