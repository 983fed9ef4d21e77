// Replies compressed for --compress (http/content_coding/reply_compressor.h): the 1 KiB
// threshold, Vary, statuses without a body, bytes that do not shrink, both codings decoded
// by other libraries, and the bytes on the wire (http/reply_writer.h).
#include "http/content_coding/reply_compressor.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/support/allocation_count.h"
#include "tests/unit/http/content_coding/coding_fixtures.h"

namespace http::content_coding {
namespace {

using testing::json_like;

constexpr CodingSet kGzipAndZstd{.gzip = true, .zstd = true};

Response json_reply(std::string body, int status = 200) {
  Response response;
  response.set_json(status);
  response.body() = std::move(body);
  return response;
}

class ReplyCompressorTest : public ::testing::Test {
 protected:
  ContentCodingMetrics metrics_;
  ReplyCompressor compressor_{kGzipAndZstd, metrics_};
};

TEST_F(ReplyCompressorTest, BelowOneKiBGoesAsItIsWithoutVary) {
  const Response response = json_reply(json_like(kMinCompressedReplyBytes - 1));
  const BodyCoding coding = compressor_.code(response, Coding::kGzip);
  EXPECT_TRUE(coding.content_encoding.empty());
  EXPECT_FALSE(coding.vary);
}

TEST_F(ReplyCompressorTest, FromOneKiBIsCompressed) {
  const Response response = json_reply(json_like(kMinCompressedReplyBytes));
  const BodyCoding coding = compressor_.code(response, Coding::kGzip);
  EXPECT_EQ(coding.content_encoding, "gzip");
  EXPECT_TRUE(coding.vary);
  EXPECT_LT(coding.coded.size(), response.body().size());
}

TEST_F(ReplyCompressorTest, GzipIsReadByZlib) {
  const Response response = json_reply(json_like(3'000));
  const BodyCoding coding = compressor_.code(response, Coding::kGzip);
  ASSERT_EQ(coding.content_encoding, "gzip");
  EXPECT_EQ(testing::zlib_gunzip(coding.coded), response.body());
  EXPECT_EQ(metrics_.gzip_replies.get(), 1u);
  EXPECT_EQ(metrics_.gzip_reply_bytes_in.get(), 3'000u);
  EXPECT_EQ(metrics_.gzip_reply_bytes_out.get(), coding.coded.size());
}

TEST_F(ReplyCompressorTest, ZstdIsReadByLibzstdAndDeclaresItsSize) {
  const Response response = json_reply(json_like(3'000));
  const BodyCoding coding = compressor_.code(response, Coding::kZstd);
  ASSERT_EQ(coding.content_encoding, "zstd");
  EXPECT_EQ(testing::zstd_decode(coding.coded), response.body());  // needs the declared size
  EXPECT_EQ(metrics_.zstd_replies.get(), 1u);
  EXPECT_EQ(metrics_.zstd_reply_bytes_out.get(), coding.coded.size());
}

TEST_F(ReplyCompressorTest, IdentityChosenStillVaries) {
  const BodyCoding coding = compressor_.code(json_reply(json_like(2'000)), Coding::kIdentity);
  EXPECT_TRUE(coding.content_encoding.empty());
  EXPECT_TRUE(coding.vary);
}

TEST_F(ReplyCompressorTest, OffNeverCompressesNorVaries) {
  ReplyCompressor off({}, metrics_);
  const BodyCoding coding = off.code(json_reply(json_like(5'000)), Coding::kGzip);
  EXPECT_TRUE(coding.content_encoding.empty());
  EXPECT_FALSE(coding.vary);
}

TEST_F(ReplyCompressorTest, ACodingNotOfferedIsNotUsed) {
  ReplyCompressor gzip_only({.gzip = true, .zstd = false}, metrics_);
  const BodyCoding coding = gzip_only.code(json_reply(json_like(5'000)), Coding::kZstd);
  EXPECT_TRUE(coding.content_encoding.empty());
  EXPECT_TRUE(coding.vary);
}

TEST_F(ReplyCompressorTest, BytesThatDoNotShrinkGoAsTheyAre) {
  const BodyCoding gzip = compressor_.code(json_reply(testing::random_bytes(4'000)), Coding::kGzip);
  const BodyCoding zstd = compressor_.code(json_reply(testing::random_bytes(4'000)), Coding::kZstd);
  EXPECT_TRUE(gzip.content_encoding.empty());
  EXPECT_TRUE(zstd.content_encoding.empty());
  EXPECT_TRUE(gzip.vary);
  EXPECT_EQ(metrics_.replies_not_smaller.get(), 2u);
}

TEST_F(ReplyCompressorTest, StatusesWithoutABodyAreNotCoded) {
  for (int status : {101, 204, 304}) {
    const BodyCoding coding = compressor_.code(json_reply(json_like(2'000), status), Coding::kGzip);
    EXPECT_TRUE(coding.content_encoding.empty()) << status;
    EXPECT_FALSE(coding.vary) << status;
  }
  EXPECT_EQ(compressor_.code(json_reply(json_like(2'000), 422), Coding::kGzip).content_encoding, "gzip");
}

TEST_F(ReplyCompressorTest, PastEightMiBGoesAsItIs) {
  const BodyCoding coding = compressor_.code(json_reply(std::string(kMaxCompressedReplyBytes + 1, 'a')), Coding::kZstd);
  EXPECT_TRUE(coding.content_encoding.empty());
  EXPECT_TRUE(coding.vary);
  EXPECT_EQ(metrics_.replies_too_large.get(), 1u);
  // The scratch grown for a large reply still serves the next small one.
  const Response small = json_reply(json_like(3'000));
  EXPECT_EQ(testing::zstd_decode(compressor_.code(small, Coding::kZstd).coded), small.body());
}

TEST_F(ReplyCompressorTest, CodeForReadsTheRequestsAcceptEncoding) {
  Request request;
  request.headers[request.header_count++] = {"Accept-Encoding", "gzip;q=1, zstd;q=0.5"};
  EXPECT_EQ(compressor_.code_for(request, json_reply(json_like(2'000))).content_encoding, "gzip");
  request.header_count = 0;
  const BodyCoding none = compressor_.code_for(request, json_reply(json_like(2'000)));
  EXPECT_TRUE(none.content_encoding.empty());
  EXPECT_TRUE(none.vary);
}

TEST_F(ReplyCompressorTest, AWarmCompressorAllocatesNothing) {
  const Response response = json_reply(json_like(4'000));
  ASSERT_EQ(compressor_.code(response, Coding::kGzip).content_encoding, "gzip");
  ASSERT_EQ(compressor_.code(response, Coding::kZstd).content_encoding, "zstd");
  EXPECT_EQ(decision::testing::allocations_while([&] {
              for (int i = 0; i < 10; ++i) {
                compressor_.code(response, Coding::kGzip);
                compressor_.code(response, Coding::kZstd);
              }
            }),
            0u);
}

TEST(CodedReplyWriter, CodedBodyGoesWithItsLengthEncodingAndVary) {
  Response response = json_reply("the body as the handler wrote it");
  std::string out;
  append_reply(out, response, "Sun, 06 Nov 1994 08:49:37 GMT", false, false, {},
               BodyCoding{.content_encoding = "zstd", .coded = "CODED", .vary = true});
  EXPECT_EQ(out,
            "HTTP/1.1 200 OK\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "Content-Type: application/json\r\n"
            "Content-Length: 5\r\n"
            "Content-Encoding: zstd\r\n"
            "Vary: Accept-Encoding\r\n"
            "\r\n"
            "CODED");
}

TEST(CodedReplyWriter, VaryAloneKeepsTheBody) {
  Response response = json_reply("{}");
  std::string out;
  append_reply(out, response, "Sun, 06 Nov 1994 08:49:37 GMT", false, false, {}, BodyCoding{.content_encoding = {}, .coded = {}, .vary = true});
  EXPECT_EQ(out,
            "HTTP/1.1 200 OK\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "Content-Type: application/json\r\n"
            "Content-Length: 2\r\n"
            "Vary: Accept-Encoding\r\n"
            "\r\n"
            "{}");
}

TEST(CodedReplyWriter, HeadKeepsTheCodedLengthAndSendsNoBody) {
  Response response = json_reply("plain");
  std::string out;
  append_reply(out, response, "Sun, 06 Nov 1994 08:49:37 GMT", false, /*head_request=*/true, {},
               BodyCoding{.content_encoding = "gzip", .coded = "123456789", .vary = true});
  EXPECT_NE(out.find("Content-Length: 9\r\n"), std::string::npos);
  EXPECT_TRUE(out.ends_with("Vary: Accept-Encoding\r\n\r\n"));
}

}  // namespace
}  // namespace http::content_coding
