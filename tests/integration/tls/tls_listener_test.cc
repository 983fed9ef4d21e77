// The TLS listener (docs/tls.md) as clients we did not write see it: libcurl verifying the
// certificate and the host name, openssl s_client trying protocols and suites, and raw
// bytes for what is not TLS. Every public route behaves as over plain HTTP.
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/promtool_check.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tls/test_certificates.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

constexpr const char* kDecision = R"({"placements":[{"key":"home_top","count":2}],"user":{"id":"tls-user"}})";

class TlsListener : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(certs_.ok()) << certs_.error(); }

  std::vector<std::string> tls_flags(std::vector<std::string> extra = {}) const {
    std::vector<std::string> flags = {"--tls-listen=127.0.0.1:0", "--tls-cert=" + certs_.ecdsa_cert(),
                                      "--tls-key=" + certs_.ecdsa_key()};
    flags.insert(flags.end(), extra.begin(), extra.end());
    return standard_flags(flags);
  }
  // openssl s_client against the server's TLS port with these options.
  static CommandOutput s_client(const ServerProcess& server, const std::string& options) {
    return run_command("timeout 10 openssl s_client -connect 127.0.0.1:" + std::to_string(server.tls_port()) +
                       " -servername localhost " + options);
  }

  TestCertificates certs_;
};

TEST_F(TlsListener, DecisionsAndTheirTrackingUrlsWorkOverHttpsWithTheCertificateVerified) {
  ServerProcess server(tls_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_NE(server.tls_port(), 0);
  CurlSession curl;
  curl.trust(certs_.ecdsa_cert());
  const CurlReply decision = curl.post(server.tls_url("/v1/decision"), kDecision);
  ASSERT_EQ(decision.status, 200) << decision.body;
  const std::vector<CreativeTokens> served = tokens_of(decision.body);
  ASSERT_FALSE(served.empty()) << decision.body;
  // Issued URLs follow the TLS listener when --base-url is left at its default.
  EXPECT_NE(decision.body.find("https://127.0.0.1:" + std::to_string(server.tls_port()) + "/v1/tracking?t="),
            std::string::npos)
      << decision.body;
  const CurlReply impression = curl.get(server.tls_url("/v1/tracking?t=" + served[0].impression));
  EXPECT_EQ(impression.status, 204) << impression.body;
  EXPECT_EQ(impression.new_connections, 0) << "kept alive: the second request reused the connection";
  for (int i = 0; i < 20; ++i) {
    const CurlReply again = curl.post(server.tls_url("/v1/decision"), kDecision);
    ASSERT_EQ(again.status, 200) << i;
    EXPECT_EQ(again.new_connections, 0) << i;
  }
  // Health and the client script are public routes too.
  EXPECT_EQ(curl.get(server.tls_url("/v1/decision")).status, 405);
  const std::string page = scrape_metrics(server);
  EXPECT_GE(sum_samples(page, "decisiond_tls_handshakes_total", {{"outcome", "completed"}}).value_or(0), 1.0) << page;
  EXPECT_GE(sum_samples(page, "decisiond_http_requests_total", {{"listener", "tls"}}).value_or(0), 23.0) << page;
  const PromtoolRun lint = promtool_check(page);
  EXPECT_EQ(lint.exit_code, 0) << lint.output;
  EXPECT_EQ(lint.output, "") << "promtool has something to say";
}

TEST_F(TlsListener, PlainHttpStillServesBesideIt) {
  ServerProcess server(tls_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  EXPECT_EQ(curl.post(server.public_url("/v1/decision"), kDecision).status, 200);
}

TEST_F(TlsListener, WithListenNoneOnlyHttpsServes) {
  ServerProcess server(tls_flags({"--listen=none"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  EXPECT_EQ(server.public_port(), 0);
  EXPECT_NE(server.stderr_text().find("public=none"), std::string::npos) << server.stderr_text();
  CurlSession curl;
  curl.trust(certs_.ecdsa_cert());
  EXPECT_EQ(curl.post(server.tls_url("/v1/decision"), kDecision).status, 200);
}

TEST_F(TlsListener, PlainHttpSentToTheHttpsPortIsAnswered400AndClosed) {
  ServerProcess server(tls_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection raw(server.tls_port());
  ASSERT_TRUE(raw.connected());
  ASSERT_TRUE(raw.send("POST /v1/decision HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"));
  const std::optional<HttpReply> reply = raw.read_reply();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 400);
  EXPECT_EQ(reply->header("Connection").value_or(""), "close");
  const JsonBody body(reply->body);
  ASSERT_TRUE(body.ok()) << reply->body;
  const simdjson::dom::element error = body.root()["errors"].at(0);
  EXPECT_EQ(int_member(error, "code"), 10007) << reply->body;
  EXPECT_EQ(string_member(error["details"], "reason"), "plain HTTP sent to the HTTPS port") << reply->body;
  EXPECT_TRUE(raw.wait_for_close()) << "closed after the answer";
  EXPECT_EQ(wait_for_metric(server, "decisiond_tls_connections_refused_total", {{"reason", "plain_http"}}, 1), 1.0);
}

TEST_F(TlsListener, BytesThatAreNeitherTlsNorHttpAreClosedAndCounted) {
  ServerProcess server(tls_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection raw(server.tls_port());
  ASSERT_TRUE(raw.send(std::string("\x01\x02\x03 not a handshake\n", 20)));
  EXPECT_TRUE(raw.wait_for_close());
  EXPECT_EQ(wait_for_metric(server, "decisiond_tls_connections_refused_total", {{"reason", "not_tls"}}, 1), 1.0);
  CurlSession curl;
  curl.trust(certs_.ecdsa_cert());
  EXPECT_EQ(curl.post(server.tls_url("/v1/decision"), kDecision).status, 200) << "and the listener serves on";
}

// Slowloris at the TLS layer: a ClientHello that never finishes, and a connection that
// never sends one, are closed at --request-timeout and counted, while a client that does
// finish is served.
TEST_F(TlsListener, AHandshakeThatStallsIsClosedAtTheRequestTimeoutAndCounted) {
  ServerProcess server(tls_flags({"--request-timeout=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection partial(server.tls_port());
  ASSERT_TRUE(partial.send(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11)));
  RawConnection silent(server.tls_port());
  ASSERT_TRUE(silent.connected());
  CurlSession curl;
  curl.trust(certs_.ecdsa_cert());
  EXPECT_EQ(curl.post(server.tls_url("/v1/decision"), kDecision).status, 200);
  // Well before the 60 s idle timeout.
  EXPECT_TRUE(partial.wait_for_close(std::chrono::seconds(5)));
  EXPECT_TRUE(silent.wait_for_close(std::chrono::seconds(5)));
  EXPECT_EQ(wait_for_metric(server, "decisiond_tls_handshakes_total", {{"outcome", "timed_out"}}, 2), 2.0);
  EXPECT_EQ(curl.post(server.tls_url("/v1/decision"), kDecision).status, 200) << "and the listener serves on";
}

TEST_F(TlsListener, OnlyTls12And13WithForwardSecretAeadSuitesAndAlpnHttp11) {
  ServerProcess server(tls_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const CommandOutput tls13 = s_client(server, "-tls1_3 -alpn h2,http/1.1 -CAfile " + certs_.ecdsa_cert());
  EXPECT_NE(tls13.out.find("New, TLSv1.3, Cipher is TLS_"), std::string::npos) << tls13.out;
  EXPECT_NE(tls13.out.find("ALPN protocol: http/1.1"), std::string::npos) << tls13.out;
  EXPECT_NE(tls13.out.find("Verify return code: 0 (ok)"), std::string::npos) << tls13.out;
  const CommandOutput tls12 = s_client(server, "-tls1_2 -CAfile " + certs_.ecdsa_cert());
  EXPECT_NE(tls12.out.find("New, TLSv1.2, Cipher is ECDHE-ECDSA-"), std::string::npos) << tls12.out;
  EXPECT_NE(tls12.out.find("Verify return code: 0 (ok)"), std::string::npos) << tls12.out;
  // Refused with OpenSSL's alert: older protocols, suites without forward secrecy or AEAD, an
  // ALPN list without http/1.1.
  for (const char* refused : {"-tls1_1", "-tls1_2 -cipher AES128-SHA", "-tls1_2 -cipher AES128-GCM-SHA256",
                              "-tls1_2 -cipher ECDHE-ECDSA-AES128-SHA", "-alpn h2"}) {
    const CommandOutput out = s_client(server, refused);
    EXPECT_NE(out.out.find("New, (NONE), Cipher is (NONE)"), std::string::npos) << refused << ": " << out.out;
    EXPECT_NE(out.out.find("alert"), std::string::npos) << refused << ": " << out.out;
    EXPECT_NE(out.status, 0) << refused << ": " << out.out;
  }
  const std::string page = scrape_metrics(server);
  EXPECT_EQ(sum_samples(page, "decisiond_tls_handshakes_total", {{"outcome", "failed"}}).value_or(0), 5.0) << page;
  EXPECT_GE(sum_samples(page, "decisiond_tls_handshakes_total", {{"protocol", "TLSv1.2"}}).value_or(0), 1.0);
}

TEST_F(TlsListener, AnRsaCertificateBesideTheEcdsaOneServesClientsThatAskForRsa) {
  ServerProcess server(tls_flags({"--tls-cert=" + certs_.rsa_cert(), "--tls-key=" + certs_.rsa_key()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const CommandOutput rsa = s_client(server, "-tls1_2 -sigalgs RSA-PSS+SHA256:RSA+SHA256 -CAfile " + certs_.rsa_cert());
  EXPECT_NE(rsa.out.find("New, TLSv1.2, Cipher is ECDHE-RSA-"), std::string::npos) << rsa.out;
  EXPECT_NE(rsa.out.find("Verify return code: 0 (ok)"), std::string::npos) << rsa.out;
  const CommandOutput ecdsa = s_client(server, "-tls1_2 -CAfile " + certs_.ecdsa_cert());
  EXPECT_NE(ecdsa.out.find("New, TLSv1.2, Cipher is ECDHE-ECDSA-"), std::string::npos) << ecdsa.out;
}

TEST_F(TlsListener, WithAdminTlsTheAdminPlaneServesHttpsWithTheSameCertificate) {
  ServerProcess server(tls_flags({"--admin-tls"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  curl.trust(certs_.ecdsa_cert());
  const std::string admin = "https://127.0.0.1:" + std::to_string(server.admin_port());
  const CurlReply metrics = curl.get(admin + "/metrics");
  ASSERT_EQ(metrics.status, 200) << metrics.body;
  EXPECT_GE(sum_samples(metrics.body, "decisiond_tls_handshakes_total", {{"listener", "admin"}, {"outcome", "completed"}})
                .value_or(0),
            1.0)
      << metrics.body;
  EXPECT_EQ(curl.get(admin + "/healthz").status, 200);
  RawConnection plain(server.admin_port());
  ASSERT_TRUE(plain.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"));
  const std::optional<HttpReply> refused = plain.read_reply();
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, 400) << "the admin plane's token never crosses in clear";
}

TEST_F(TlsListener, AnAdminPlaneOnTheNetworkWithoutTlsIsWarnedAbout) {
  ServerProcess open_admin(standard_flags({"--admin-listen=0.0.0.0:0"}));
  ASSERT_TRUE(open_admin.serving()) << open_admin.start_error();
  EXPECT_NE(open_admin.stderr_text().find("--admin-tls is off"), std::string::npos) << open_admin.stderr_text();
  ServerProcess loopback(standard_flags({}));
  ASSERT_TRUE(loopback.serving()) << loopback.start_error();
  EXPECT_EQ(loopback.stderr_text().find("--admin-tls is off"), std::string::npos) << loopback.stderr_text();
  ServerProcess with_tls(tls_flags({"--admin-listen=0.0.0.0:0", "--admin-tls"}));
  ASSERT_TRUE(with_tls.serving()) << with_tls.start_error();
  EXPECT_EQ(with_tls.stderr_text().find("--admin-tls is off"), std::string::npos) << with_tls.stderr_text();
}

TEST_F(TlsListener, CertificateFilesThatDoNotLoadStopTheStartWithExit2NamingTheFile) {
  const std::string open_key = certs_.write("open.key", "x", 0600);
  std::filesystem::copy_file(certs_.ecdsa_key(), open_key, std::filesystem::copy_options::overwrite_existing);
  chmod(open_key.c_str(), 0644);
  const std::string not_pem = certs_.write("not.pem", "not a certificate\n", 0644);
  struct Case {
    std::string cert, key, named;
  };
  for (const Case& c : {Case{certs_.ecdsa_cert(), open_key, open_key}, Case{not_pem, certs_.ecdsa_key(), not_pem},
                        Case{certs_.ecdsa_cert(), certs_.rsa_key(), certs_.rsa_key()},
                        Case{certs_.ecdsa_cert(), certs_.dir() + "/missing.key", certs_.dir() + "/missing.key"}}) {
    const FinishedRun run =
        run_to_exit(standard_flags({"--tls-listen=127.0.0.1:0", "--tls-cert=" + c.cert, "--tls-key=" + c.key}));
    ASSERT_TRUE(run.exit.has_value()) << c.named;
    EXPECT_EQ(run.exit->code, 2) << c.named << ": " << run.stderr_text;
    EXPECT_NE(run.stderr_text.find(c.named), std::string::npos) << run.stderr_text;
  }
  const FinishedRun unpaired = run_to_exit(standard_flags({"--tls-listen=127.0.0.1:0", "--tls-cert=" + certs_.ecdsa_cert()}));
  ASSERT_TRUE(unpaired.exit.has_value());
  EXPECT_EQ(unpaired.exit->code, 2) << unpaired.stderr_text;
  // Flags that make no sense together: exit 2, naming the flag.
  struct Refusal {
    std::vector<std::string> flags;
    std::string named;
  };
  for (const Refusal& r : {Refusal{{"--listen=none"}, "--listen"},
                           Refusal{{"--tls-cert=" + certs_.ecdsa_cert(), "--tls-key=" + certs_.ecdsa_key()}, "--tls-cert"},
                           Refusal{{"--tls-listen=127.0.0.1:0"}, "--tls-listen"},
                           Refusal{{"--admin-tls"}, "--admin-tls"},
                           Refusal{{"--tls-listen=not-an-address", "--tls-cert=" + certs_.ecdsa_cert(),
                                    "--tls-key=" + certs_.ecdsa_key()},
                                   "--tls-listen"}}) {
    const FinishedRun run = run_to_exit(standard_flags(r.flags));
    ASSERT_TRUE(run.exit.has_value()) << r.named;
    EXPECT_EQ(run.exit->code, 2) << r.named << ": " << run.stderr_text;
    EXPECT_NE(run.stderr_text.find(r.named), std::string::npos) << run.stderr_text;
  }
}

}  // namespace
}  // namespace integration
