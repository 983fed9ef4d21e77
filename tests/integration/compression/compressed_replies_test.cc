// --compress (docs/compression.md) as clients see it: libcurl asking for gzip or zstd and
// decoding the reply as curl --compressed does; raw bytes decoded here with zlib and libzstd;
// a VAST document; replies under 1 KiB and clients that ask for nothing get the bytes as
// they are; --compress=off never compresses; the TLS listener compresses too; what is sent
// is counted in /metrics; a bad --compress value stops the start.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tls/test_certificates.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/video_catalog.h"
#include "tests/support/body_codings.h"

namespace integration {
namespace {

// Two creatives of the demo catalog: a reply of a few KiB.
constexpr const char* kCompressedDecision = R"({"placements":[{"key":"home_top","count":2}],"user":{"id":"compress-user"}})";

bool is_success_json(const std::string& body) {
  const JsonBody json(body);
  if (!json.ok()) return false;
  const std::optional<simdjson::dom::element> success = member(json.root(), "success");
  return success && success->is_bool() && bool(*success);
}

ServerProcess start(std::vector<std::string> extra) { return ServerProcess(standard_flags(std::move(extra))); }

TEST(CompressedReplies, CurlReadsAGzipDecision) {
  ServerProcess server = start({"--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  curl.accept_encoding("gzip");
  const CurlReply reply = curl.post(server.public_url("/v1/decision"), kCompressedDecision);
  ASSERT_EQ(reply.status, 200) << reply.error << reply.body;
  EXPECT_EQ(reply.header("Content-Encoding"), "gzip");
  EXPECT_EQ(reply.header("Vary"), "Accept-Encoding");
  EXPECT_GE(reply.body.size(), 1024u) << "the decoded decision";
  EXPECT_TRUE(is_success_json(reply.body)) << reply.body;
  // The wire carried fewer bytes than curl handed over.
  EXPECT_LT(std::stoul(reply.header("Content-Length")), reply.body.size());
}

TEST(CompressedReplies, CurlReadsAZstdDecisionAndZstdWinsWhenBothAreOffered) {
  ServerProcess server = start({"--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  curl.accept_encoding("");  // what curl --compressed sends: every coding it reads
  const CurlReply reply = curl.post(server.public_url("/v1/decision"), kCompressedDecision);
  ASSERT_EQ(reply.status, 200) << reply.error << reply.body;
  EXPECT_EQ(reply.header("Content-Encoding"), "zstd");
  EXPECT_TRUE(is_success_json(reply.body)) << reply.body;
  curl.accept_encoding("gzip;q=1, zstd;q=0.5");
  EXPECT_EQ(curl.post(server.public_url("/v1/decision"), kCompressedDecision).header("Content-Encoding"), "gzip");
}

// The reply as it crossed the wire, decoded by zlib and libzstd rather than by libcurl.
TEST(CompressedReplies, RawBytesAreTheCodingTheHeaderNames) {
  ServerProcess server = start({"--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.connected());
  ASSERT_TRUE(connection.send(post_request("/v1/decision", kCompressedDecision, "Accept-Encoding: gzip\r\n")));
  const std::optional<HttpReply> gzip = connection.read_reply();
  ASSERT_TRUE(gzip) << connection.last_error();
  EXPECT_EQ(gzip->header("Content-Encoding"), "gzip");
  EXPECT_EQ(gzip->header("Content-Length"), std::to_string(gzip->body.size()));
  const std::optional<std::string> inflated = test_support::zlib_gunzip(gzip->body);
  ASSERT_TRUE(inflated) << "not gzip";
  EXPECT_TRUE(is_success_json(*inflated)) << *inflated;

  ASSERT_TRUE(connection.send(post_request("/v1/decision", kCompressedDecision, "Accept-Encoding: zstd\r\n")));
  const std::optional<HttpReply> zstd = connection.read_reply();
  ASSERT_TRUE(zstd) << connection.last_error();
  EXPECT_EQ(zstd->header("Content-Encoding"), "zstd");
  const std::optional<std::string> decoded = test_support::zstd_decode(zstd->body);
  ASSERT_TRUE(decoded) << "not a zstd frame with its size";
  EXPECT_TRUE(is_success_json(*decoded)) << *decoded;
}

TEST(CompressedReplies, AClientThatAsksForNothingOrRefusesEveryCodingGetsTheBytesAsTheyAre) {
  ServerProcess server = start({"--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (const char* accept : {"", "Accept-Encoding: identity\r\n", "Accept-Encoding: gzip;q=0, zstd;q=0\r\n",
                             "Accept-Encoding: br\r\n"}) {
    RawConnection connection(server.public_port());
    ASSERT_TRUE(connection.send(post_request("/v1/decision", kCompressedDecision, accept)));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << connection.last_error();
    EXPECT_EQ(reply->status, 200) << accept;
    EXPECT_FALSE(reply->header("Content-Encoding")) << accept;
    // The representation still depends on Accept-Encoding: caches are told so.
    EXPECT_EQ(reply->header("Vary"), "Accept-Encoding") << accept;
    EXPECT_TRUE(is_success_json(reply->body)) << accept;
  }
}

TEST(CompressedReplies, RepliesUnderOneKiBAreNotCompressed) {
  ServerProcess server = start({"--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  curl.accept_encoding("gzip, zstd");
  // A 404 envelope and a 422 of one error are a few hundred bytes.
  for (const CurlReply& reply : {curl.get(server.public_url("/no/such/route")),
                                 curl.post(server.public_url("/v1/decision"), R"({"placements":[]})")}) {
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_LT(reply.body.size(), 1024u) << reply.body;
    EXPECT_EQ(reply.header("Content-Encoding"), "") << reply.status;
    EXPECT_EQ(reply.header("Vary"), "") << reply.status;
  }
}

TEST(CompressedReplies, OffSendsIdentityWhateverTheClientAsks) {
  for (std::vector<std::string> flags : {std::vector<std::string>{}, std::vector<std::string>{"--compress=off"}}) {
    ServerProcess server = start(flags);
    ASSERT_TRUE(server.serving()) << server.start_error();
    CurlSession curl;
    curl.accept_encoding("gzip, zstd");
    const CurlReply reply = curl.post(server.public_url("/v1/decision"), kCompressedDecision);
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_GE(reply.body.size(), 1024u);
    EXPECT_EQ(reply.header("Content-Encoding"), "");
    EXPECT_EQ(reply.header("Vary"), "");
  }
}

TEST(CompressedReplies, OnlyTheCodingsOfTheFlagAreUsed) {
  ServerProcess server = start({"--compress=gzip"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  curl.accept_encoding("zstd");
  const CurlReply zstd_only = curl.post(server.public_url("/v1/decision"), kCompressedDecision);
  EXPECT_EQ(zstd_only.header("Content-Encoding"), "");
  EXPECT_EQ(zstd_only.header("Vary"), "Accept-Encoding");
  curl.accept_encoding("zstd, gzip");
  EXPECT_EQ(curl.post(server.public_url("/v1/decision"), kCompressedDecision).header("Content-Encoding"), "gzip");
}

TEST(CompressedReplies, AVastDocumentIsCompressed) {
  const TempFile catalog("catalog.json", video_catalog_json());
  ServerProcess server = start({"--catalog=" + catalog.path(), std::string("--base-url=") + kVideoBaseUrl,
                                "--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply decided = decide_video(client, kVideoVersion, "video");
  ASSERT_EQ(decided.status, 200) << decided.body;
  const VideoDecision decision(decided.body);
  const std::optional<simdjson::dom::element> tag = decision.creative("ad_4");
  ASSERT_TRUE(tag) << decided.body;
  const std::string path = path_of(string_member((*tag)["vast"], "tagUrl").value_or(""));
  ASSERT_FALSE(path.empty()) << decided.body;

  TrackingClient plain(server);
  const std::optional<HttpReply> identity = plain.request("GET", path);
  ASSERT_TRUE(identity) << plain.last_error();
  ASSERT_EQ(identity->status, 200) << identity->body;
  ASSERT_GE(identity->body.size(), 1024u) << "a VAST document under the threshold proves nothing";
  EXPECT_FALSE(identity->header("Content-Encoding"));

  TrackingClient compressed(server);
  const std::optional<HttpReply> zstd = compressed.request("GET", path, "Accept-Encoding: zstd\r\n");
  ASSERT_TRUE(zstd) << compressed.last_error();
  ASSERT_EQ(zstd->status, 200);
  EXPECT_EQ(zstd->header("Content-Type"), "application/xml");
  EXPECT_EQ(zstd->header("Content-Encoding"), "zstd");
  EXPECT_EQ(zstd->header("Vary"), "Accept-Encoding");
  EXPECT_LT(zstd->body.size(), identity->body.size());
  // The same document as the identity fetch, but for the tokens minted at each fetch.
  const std::optional<std::string> document = test_support::zstd_decode(zstd->body);
  ASSERT_TRUE(document) << "not a zstd frame with its size";
  EXPECT_EQ(golden_form(*document), golden_form(identity->body));
  const std::optional<HttpReply> gzip = compressed.request("GET", path, "Accept-Encoding: gzip\r\n");
  ASSERT_TRUE(gzip) << compressed.last_error();
  EXPECT_EQ(gzip->header("Content-Encoding"), "gzip");
  const std::optional<std::string> inflated = test_support::zlib_gunzip(gzip->body);
  ASSERT_TRUE(inflated) << "not gzip";
  EXPECT_EQ(golden_form(*inflated), golden_form(identity->body));
}

TEST(CompressedReplies, TheTlsListenerCompressesToo) {
  TestCertificates certs;
  ASSERT_TRUE(certs.ok()) << certs.error();
  ServerProcess server = start({"--tls-listen=127.0.0.1:0", "--tls-cert=" + certs.ecdsa_cert(),
                                "--tls-key=" + certs.ecdsa_key(), "--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  curl.trust(certs.ecdsa_cert());
  curl.accept_encoding("gzip");
  const CurlReply reply = curl.post(server.tls_url("/v1/decision"), kCompressedDecision);
  ASSERT_EQ(reply.status, 200) << reply.error << reply.body;
  EXPECT_EQ(reply.header("Content-Encoding"), "gzip");
  EXPECT_TRUE(is_success_json(reply.body)) << reply.body;
  // A gzip request body over TLS too.
  const CurlReply coded = curl.post_with_headers(server.tls_url("/v1/decision"), test_support::zlib_gzip(kCompressedDecision),
                                                 {"Content-Type: application/json", "Content-Encoding: gzip"});
  EXPECT_EQ(coded.status, 200) << coded.body;
  const std::string page = scrape_metrics(server);
  EXPECT_EQ(sum_samples(page, "decisiond_http_compressed_replies_total", {{"listener", "tls"}, {"coding", "gzip"}}),
            2.0)
      << page;
  EXPECT_EQ(sum_samples(page, "decisiond_http_coded_request_bodies_total",
                        {{"listener", "tls"}, {"coding", "gzip"}, {"outcome", "decoded"}}),
            1.0)
      << page;
}

TEST(CompressedReplies, MetricsCountRepliesAndTheirBytes) {
  ServerProcess server = start({"--compress=gzip,zstd"});
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  size_t wire = 0;
  for (const char* coding : {"gzip", "gzip", "zstd"}) {
    curl.accept_encoding(coding);
    const CurlReply reply = curl.post(server.public_url("/v1/decision"), kCompressedDecision);
    ASSERT_EQ(reply.header("Content-Encoding"), coding);
    if (std::string_view(coding) == "gzip") wire += std::stoul(reply.header("Content-Length"));
  }
  const std::string page = scrape_metrics(server);
  const Labels gzip = {{"listener", "public"}, {"coding", "gzip"}};
  EXPECT_EQ(sum_samples(page, "decisiond_http_compressed_replies_total", gzip), 2.0) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_http_compressed_replies_total", {{"listener", "public"}, {"coding", "zstd"}}),
            1.0);
  EXPECT_EQ(sum_samples(page, "decisiond_http_compressed_reply_output_bytes_total", gzip), double(wire));
  EXPECT_GT(sum_samples(page, "decisiond_http_compressed_reply_input_bytes_total", gzip).value_or(0), double(wire));
}

TEST(CompressedReplies, ABadCompressValueStopsTheStartNamingTheFlag) {
  for (const char* value : {"brotli", "gzip,gzip", "gzip,", "", "on", "GZIP", "off,gzip"}) {
    const FinishedRun run = run_to_exit(standard_flags({std::string("--compress=") + value}));
    ASSERT_TRUE(run.exit) << value;
    EXPECT_EQ(run.exit->code, 2) << value << ": " << run.stderr_text;
    EXPECT_NE(run.stderr_text.find("invalid --compress: must be off, gzip, zstd or gzip,zstd"), std::string::npos)
        << value << ": " << run.stderr_text;
  }
  for (const char* value : {"zstd", "zstd,gzip"}) {
    ServerProcess server = start({std::string("--compress=") + value});
    EXPECT_TRUE(server.serving()) << value << ": " << server.start_error();
  }
}

}  // namespace
}  // namespace integration
