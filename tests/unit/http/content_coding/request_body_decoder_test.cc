// Request bodies with a Content-Encoding (http/content_coding/request_body_decoder.h):
// both codings round-trip from other libraries' output, the limit stops a zip bomb where it
// is, and what does not decode, or is not a coding we read, is refused with its reason.
#include "http/content_coding/request_body_decoder.h"

#include <string>

#include "gtest/gtest.h"
#include "simdjson.h"
#include "tests/support/allocation_count.h"
#include "tests/unit/http/content_coding/coding_fixtures.h"

namespace http::content_coding {
namespace {

using Outcome = RequestBodyDecoder::Outcome;
using testing::coded_request;
using testing::json_like;

constexpr size_t kLimit = 64 * 1024;

class RequestBodyDecoderTest : public ::testing::Test {
 protected:
  Outcome decode(std::string_view body, std::initializer_list<std::string_view> encodings, size_t limit = kLimit) {
    return decoder_.decode(coded_request(body, encodings), limit);
  }
  // The refusal's status, code and details.reason.
  struct Refusal {
    int status = 0;
    int64_t code = 0;
    std::string message;
    std::string reason;
  };
  Refusal refusal(Outcome outcome, size_t limit = kLimit) {
    Response response;
    decoder_.set_refusal(response, outcome, limit);
    Refusal r;
    r.status = response.status();
    simdjson::dom::parser parser;
    const simdjson::dom::element doc = parser.parse(response.body());
    const simdjson::dom::element error = doc["errors"].at(0);
    r.code = int64_t(error["code"]);
    r.message = std::string(std::string_view(error["message"]));
    r.reason = std::string(std::string_view(error["details"]["reason"]));
    EXPECT_EQ(response.content_type(), "application/json");
    return r;
  }

  ContentCodingMetrics metrics_;
  RequestBodyDecoder decoder_{metrics_};
};

TEST_F(RequestBodyDecoderTest, NoContentEncodingIsTheBodyAsSent) {
  EXPECT_EQ(decode("{}", {}), Outcome::kAsSent);
  EXPECT_EQ(decode("{}", {"identity"}), Outcome::kAsSent);
  EXPECT_EQ(decode("{}", {" , identity ,"}), Outcome::kAsSent);
}

TEST_F(RequestBodyDecoderTest, ABodilessRequestIsNeverRefusedForItsCoding) {
  EXPECT_EQ(decode("", {"gzip"}), Outcome::kAsSent);
  EXPECT_EQ(decode("", {"br"}), Outcome::kAsSent);
}

TEST_F(RequestBodyDecoderTest, GzipRoundTrips) {
  const std::string body = json_like(20'000);
  ASSERT_EQ(decode(testing::zlib_gzip(body), {"gzip"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body(), body);
  EXPECT_EQ(metrics_.gzip_bodies_decoded.get(), 1u);
}

TEST_F(RequestBodyDecoderTest, CodingNamesAreCaseInsensitiveAndXGzipIsGzip) {
  const std::string body = json_like(3'000);
  const std::string gzip = testing::zlib_gzip(body);
  for (std::string_view name : {"GZIP", "x-gzip", " Gzip ", "identity, gzip"}) {
    ASSERT_EQ(decode(gzip, {name}), Outcome::kDecoded) << name;
    EXPECT_EQ(decoder_.body(), body) << name;
  }
  ASSERT_EQ(decode(testing::zstd_frame(body), {"ZSTD"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body(), body);
}

TEST_F(RequestBodyDecoderTest, ZstdRoundTripsWithAndWithoutADeclaredSize) {
  const std::string body = json_like(50'000);
  ASSERT_EQ(decode(testing::zstd_frame(body), {"zstd"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body(), body);
  // No declared size: the buffer grows from its first guess (16 KiB) to the body's size.
  ASSERT_EQ(decode(testing::zstd_stream_frame(body), {"zstd"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body(), body);
  EXPECT_EQ(metrics_.zstd_bodies_decoded.get(), 2u);
}

TEST_F(RequestBodyDecoderTest, ZstdFramesOneAfterAnotherAreOneBody) {
  const std::string first = json_like(10'000, 1);
  const std::string second = json_like(30'000, 2);
  ASSERT_EQ(decode(testing::zstd_frame(first) + testing::zstd_stream_frame(second), {"zstd"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body(), first + second);
}

TEST_F(RequestBodyDecoderTest, ABodyOfExactlyTheLimitIsAccepted) {
  const std::string body = json_like(kLimit);
  EXPECT_EQ(decode(testing::zlib_gzip(body), {"gzip"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body().size(), kLimit);
  EXPECT_EQ(decode(testing::zstd_frame(body), {"zstd"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body().size(), kLimit);
  EXPECT_EQ(decode(testing::zstd_stream_frame(body), {"zstd"}), Outcome::kDecoded);
  EXPECT_EQ(decoder_.body().size(), kLimit);
}

TEST_F(RequestBodyDecoderTest, OneByteOverTheLimitIsTooLarge) {
  const std::string body = json_like(kLimit + 1);
  EXPECT_EQ(decode(testing::zlib_gzip(body), {"gzip"}), Outcome::kTooLarge);
  EXPECT_EQ(decode(testing::zstd_frame(body), {"zstd"}), Outcome::kTooLarge);
  EXPECT_EQ(decode(testing::zstd_stream_frame(body), {"zstd"}), Outcome::kTooLarge);
  EXPECT_EQ(metrics_.gzip_bodies_too_large.get(), 1u);
  EXPECT_EQ(metrics_.zstd_bodies_too_large.get(), 2u);
}

// A few KiB that inflate to 20 MiB: refused having held no more than the limit.
TEST_F(RequestBodyDecoderTest, GzipBombStopsAtTheLimit) {
  const std::string bomb = testing::zlib_gzip(std::string(20 << 20, '0'));
  ASSERT_LT(bomb.size(), 64u * 1024);
  EXPECT_EQ(decode(bomb, {"gzip"}), Outcome::kTooLarge);
  EXPECT_LE(decoder_.body().capacity(), kLimit);
  EXPECT_TRUE(decoder_.body().empty());
}

TEST_F(RequestBodyDecoderTest, GzipBombWhoseSizeFieldLiesStopsAtTheLimit) {
  std::string bomb = testing::zlib_gzip(std::string(20 << 20, '0'));
  bomb[bomb.size() - 4] = 100;  // ISIZE claims 100 bytes
  bomb[bomb.size() - 3] = bomb[bomb.size() - 2] = bomb[bomb.size() - 1] = 0;
  EXPECT_EQ(decode(bomb, {"gzip"}), Outcome::kTooLarge);
  EXPECT_LE(decoder_.body().capacity(), kLimit);
}

TEST_F(RequestBodyDecoderTest, ZstdBombThatDeclaresItsSizeIsRefusedBeforeDecoding) {
  const std::string bomb = testing::zstd_frame(std::string(20 << 20, '0'));
  ASSERT_LT(bomb.size(), 64u * 1024);
  EXPECT_EQ(decode(bomb, {"zstd"}), Outcome::kTooLarge);
  EXPECT_EQ(decoder_.body().capacity(), std::string().capacity());  // nothing was held
}

TEST_F(RequestBodyDecoderTest, ZstdBombWithoutADeclaredSizeStopsAtTheLimit) {
  const std::string bomb = testing::zstd_stream_frame(std::string(20 << 20, '0'));
  ASSERT_LT(bomb.size(), 64u * 1024);
  EXPECT_EQ(decode(bomb, {"zstd"}), Outcome::kTooLarge);
  EXPECT_LE(decoder_.body().capacity(), kLimit);
}

TEST_F(RequestBodyDecoderTest, TooLargeIs413WithTheLimitInItsReason) {
  const Refusal r = refusal(Outcome::kTooLarge, 1234);
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(r.code, 10003);
  EXPECT_EQ(r.reason, "the body decodes to more than 1234 bytes");
}

TEST_F(RequestBodyDecoderTest, TruncatedGzipIsUndecodable) {
  const std::string gzip = testing::zlib_gzip(json_like(5'000));
  EXPECT_EQ(decode(gzip.substr(0, gzip.size() - 10), {"gzip"}), Outcome::kUndecodable);
  const Refusal r = refusal(Outcome::kUndecodable);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.code, 10001);
  EXPECT_EQ(r.reason, "gzip: corrupt or truncated data");
  EXPECT_EQ(metrics_.gzip_bodies_undecodable.get(), 1u);
}

TEST_F(RequestBodyDecoderTest, CorruptGzipIsUndecodable) {
  std::string gzip = testing::zlib_gzip(json_like(5'000));
  gzip[gzip.size() / 2] ^= 0x55;
  EXPECT_EQ(decode(gzip, {"gzip"}), Outcome::kUndecodable);
  std::string crc = testing::zlib_gzip(json_like(5'000));
  crc[crc.size() - 8] ^= 1;  // the CRC32 of the trailer
  EXPECT_EQ(decode(crc, {"gzip"}), Outcome::kUndecodable);
  EXPECT_EQ(decode("not gzip at all, just text", {"gzip"}), Outcome::kUndecodable);
  EXPECT_EQ(decode("tiny", {"gzip"}), Outcome::kUndecodable);
  EXPECT_EQ(refusal(Outcome::kUndecodable).reason, "gzip: shorter than a gzip member");
}

TEST_F(RequestBodyDecoderTest, GzipSizeFieldLargerThanTheDataIsUndecodable) {
  std::string gzip = testing::zlib_gzip(json_like(5'000));
  gzip[gzip.size() - 2] = 1;  // ISIZE + 64 KiB, still within a 1 MiB limit
  EXPECT_EQ(decode(gzip, {"gzip"}, 1 << 20), Outcome::kUndecodable);
}

TEST_F(RequestBodyDecoderTest, SeveralGzipMembersAreRefused) {
  const std::string member = testing::zlib_gzip(json_like(2'000));
  EXPECT_EQ(decode(member + member, {"gzip"}), Outcome::kUndecodable);
  EXPECT_EQ(refusal(Outcome::kUndecodable).reason, "gzip: data after the first gzip member");
}

TEST_F(RequestBodyDecoderTest, TruncatedOrCorruptZstdIsUndecodable) {
  const std::string body = json_like(40'000);
  const std::string frame = testing::zstd_stream_frame(body);
  EXPECT_EQ(decode(frame.substr(0, frame.size() - 5), {"zstd"}), Outcome::kUndecodable);
  EXPECT_EQ(refusal(Outcome::kUndecodable).reason, "zstd: truncated data");
  std::string corrupt = frame;
  corrupt[corrupt.size() - 2] ^= 0x55;  // inside the checksum
  EXPECT_EQ(decode(corrupt, {"zstd"}), Outcome::kUndecodable);
  EXPECT_EQ(decode("plain text, not zstd", {"zstd"}), Outcome::kUndecodable);
  EXPECT_EQ(refusal(Outcome::kUndecodable).reason, "zstd: not a zstd frame");
  EXPECT_EQ(metrics_.zstd_bodies_undecodable.get(), 3u);
}

// A hand-made frame: magic, a descriptor with no size, a window of 2^(10 + exponent), and
// one raw block holding "a".
std::string frame_with_window(unsigned char exponent) {
  const unsigned char bytes[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, static_cast<unsigned char>(exponent << 3),
                                 0x09, 0x00, 0x00, 'a'};
  return std::string(reinterpret_cast<const char*>(bytes), sizeof(bytes));
}

TEST_F(RequestBodyDecoderTest, ZstdWindowLargerThan8MiBIsRefused) {
  ASSERT_EQ(decode(frame_with_window(13), {"zstd"}), Outcome::kDecoded);  // 8 MiB: read
  EXPECT_EQ(decoder_.body(), "a");
  EXPECT_EQ(decode(frame_with_window(14), {"zstd"}), Outcome::kUndecodable);  // 16 MiB
  EXPECT_EQ(refusal(Outcome::kUndecodable).reason, "zstd: the frame's window is larger than 8 MiB");
}

TEST_F(RequestBodyDecoderTest, UnknownCodingIs415) {
  EXPECT_EQ(decode("abc", {"br"}), Outcome::kUnsupported);
  Refusal r = refusal(Outcome::kUnsupported);
  EXPECT_EQ(r.status, 415);
  EXPECT_EQ(r.code, 10002);
  EXPECT_EQ(r.message, "unsupported Content-Encoding");
  EXPECT_EQ(r.reason, "Content-Encoding must be gzip or zstd");
  EXPECT_EQ(decode("abc", {"deflate"}), Outcome::kUnsupported);
  EXPECT_EQ(decode("abc", {"gzip, br"}), Outcome::kUnsupported);
  EXPECT_EQ(metrics_.bodies_unsupported.get(), 3u);
}

TEST_F(RequestBodyDecoderTest, SeveralCodingsAre415) {
  const std::string gzip = testing::zlib_gzip("{}");
  EXPECT_EQ(decode(gzip, {"gzip, zstd"}), Outcome::kUnsupported);
  EXPECT_EQ(refusal(Outcome::kUnsupported).reason, "one content coding at most: gzip or zstd, not several");
  EXPECT_EQ(decode(gzip, {"gzip", "gzip"}), Outcome::kUnsupported);  // two fields are one list
}

TEST_F(RequestBodyDecoderTest, AWarmDecoderAllocatesNothing) {
  const std::string gzip = testing::zlib_gzip(json_like(8'000));
  const std::string zstd = testing::zstd_frame(json_like(8'000));
  const Request gzip_request = coded_request(gzip, {"gzip"});
  const Request zstd_request = coded_request(zstd, {"zstd"});
  ASSERT_EQ(decoder_.decode(gzip_request, kLimit), Outcome::kDecoded);
  ASSERT_EQ(decoder_.decode(zstd_request, kLimit), Outcome::kDecoded);
  EXPECT_EQ(decision::testing::allocations_while([&] {
              for (int i = 0; i < 10; ++i) {
                decoder_.decode(gzip_request, kLimit);
                decoder_.decode(zstd_request, kLimit);
              }
            }),
            0u);
}

}  // namespace
}  // namespace http::content_coding
