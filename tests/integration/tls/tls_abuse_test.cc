// What a misbehaving TLS client does to the HTTPS listener (issue 30 point 5): a client that
// asks to renegotiate, a close_notify in the middle of a request, a record larger than TLS
// allows, a truncated and an oversized ClientHello. Never a crash; the listener serves the
// next client; each is closed (and counted where it fails the handshake). And a handshake
// begun by a ClientHello that waited past the overload bound is shed.
#include <csignal>
#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tls/test_certificates.h"

namespace integration {
namespace {

constexpr const char* kAbuseDecision = R"({"placements":[{"key":"home_top","count":1}]})";

class TlsAbuse : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(certs_.ok()) << certs_.error();
    server_ = std::make_unique<ServerProcess>(standard_flags(
        {"--tls-listen=127.0.0.1:0", "--tls-cert=" + certs_.ecdsa_cert(), "--tls-key=" + certs_.ecdsa_key()}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  void expect_still_serving() {
    CurlSession curl;
    curl.trust(certs_.ecdsa_cert());
    EXPECT_EQ(curl.post(server_->tls_url("/v1/decision"), kAbuseDecision).status, 200);
  }
  std::string python(const std::string& script) {
    const std::string path = certs_.write("abuse.py", script, 0644);
    return run_command("timeout 30 /usr/bin/python3 " + path + " " + std::to_string(server_->tls_port()) + " " +
                       certs_.ecdsa_cert())
        .out;
  }

  TestCertificates certs_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(TlsAbuse, AClientAskingToRenegotiateIsRefusedAndTheListenerServesOn) {
  // s_client's "R" command asks for a renegotiation (TLS 1.2; TLS 1.3 has none).
  const CommandOutput out = run_command(
      "(sleep 1; printf 'R\\n'; sleep 1) | timeout 10 openssl s_client -tls1_2 -connect 127.0.0.1:" +
      std::to_string(server_->tls_port()) + " -servername localhost -CAfile " + certs_.ecdsa_cert());
  EXPECT_NE(out.out.find("RENEGOTIATING"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("no renegotiation"), std::string::npos) << "the server's refusal: " << out.out;
  expect_still_serving();
}

TEST_F(TlsAbuse, ACloseNotifyInTheMiddleOfARequestClosesTheConnection) {
  const std::string out = python(
      "import socket, ssl, sys\n"
      "ctx = ssl.create_default_context(cafile=sys.argv[2])\n"
      "s = ctx.wrap_socket(socket.create_connection(('127.0.0.1', int(sys.argv[1]))), server_hostname='localhost')\n"
      "s.sendall(b'POST /v1/decision HTTP/1.1\\r\\nHost: localhost\\r\\nContent-Length: 100\\r\\n\\r\\n{\"pla')\n"
      "raw = s.unwrap()  # close_notify, then the plain socket\n"
      "raw.settimeout(5)\n"
      "print('closed' if raw.recv(4096) == b'' else 'still open')\n");
  EXPECT_NE(out.find("closed"), std::string::npos) << out;
  expect_still_serving();
}

TEST_F(TlsAbuse, ARecordLongerThanTlsAllowsAndBrokenClientHellosAreClosed) {
  // A handshake record header announcing 65,535 bytes (TLS allows 16,384 + 2,048), then junk.
  RawConnection oversized(server_->tls_port());
  ASSERT_TRUE(oversized.send(std::string("\x16\x03\x01\xff\xff", 5) + std::string(20000, 'x')));
  EXPECT_TRUE(oversized.wait_for_close());
  // A ClientHello cut short, then closed by the client: counted as cut.
  RawConnection truncated(server_->tls_port());
  ASSERT_TRUE(truncated.send(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11)));
  truncated.close();
  // A ClientHello whose inner length exceeds its record: a decode error.
  RawConnection inconsistent(server_->tls_port());
  ASSERT_TRUE(inconsistent.send(std::string("\x16\x03\x01\x00\x08\x01\xff\xff\xff\x03\x03\x00\x00", 13)));
  EXPECT_TRUE(inconsistent.wait_for_close());
  EXPECT_EQ(wait_for_metric(*server_, "decisiond_tls_handshakes_total", {{"outcome", "failed"}}, 2), 2.0);
  EXPECT_EQ(wait_for_metric(*server_, "decisiond_tls_handshakes_total", {{"outcome", "cut"}}, 1), 1.0);
  expect_still_serving();
}

// A full handshake costs a core more than a decision: a ClientHello that waited in the
// socket past a quarter of --shed-lag (12.5 ms here; the core was stopped 300 ms) is closed
// unanswered and counted as shed, and the next client is served.
TEST_F(TlsAbuse, AClientHelloThatWaitedPastTheOverloadBoundIsShed) {
  server_ = std::make_unique<ServerProcess>(
      standard_flags({"--tls-listen=127.0.0.1:0", "--tls-cert=" + certs_.ecdsa_cert(),
                      "--tls-key=" + certs_.ecdsa_key(), "--shed-lag=50ms"}));
  ASSERT_TRUE(server_->serving()) << server_->start_error();
  RawConnection waited(server_->tls_port());
  ASSERT_TRUE(waited.connected());
  // Accepted first, so that only the ClientHello waits.
  ASSERT_EQ(wait_for_metric(*server_, "decisiond_http_connections_open", {{"listener", "tls"}}, 1), 1.0);
  ASSERT_TRUE(server_->stop_all_threads());
  // The start of a ClientHello is enough: the handshake is refused before OpenSSL sees it.
  ASSERT_TRUE(waited.send(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11)));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  server_->send_signal(SIGCONT);
  EXPECT_TRUE(waited.wait_for_close());
  EXPECT_EQ(wait_for_metric(*server_, "decisiond_tls_handshakes_total", {{"outcome", "shed"}}, 1), 1.0);
  expect_still_serving();
}

}  // namespace
}  // namespace integration
