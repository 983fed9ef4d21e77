// What a misbehaving TLS client does to the HTTPS listener (issue 30 point 5): a client that
// asks to renegotiate, a close_notify in the middle of a request, a record larger than TLS
// allows, a truncated and an oversized ClientHello. Never a crash; the listener serves the
// next client; each is closed (and counted where it fails the handshake). And a handshake
// begun by a ClientHello that waited past the overload bound is shed.
#include <csignal>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <openssl/bio.h>
#include <openssl/ssl.h>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tls/test_certificates.h"
#include "tests/support/sanitizers.h"

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

// A ClientHello as a fresh client sends it (OpenSSL's client over memory buffers, not sent
// anywhere): replayed, it makes the server do a full handshake's work.
std::string recorded_client_hello() {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  SSL* ssl = SSL_new(ctx);
  BIO* in = BIO_new(BIO_s_mem());
  BIO* out = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl, in, out);
  SSL_set_tlsext_host_name(ssl, "localhost");
  SSL_connect(ssl);  // wants the server's answer; the ClientHello is in out
  char* data = nullptr;
  const long size = BIO_get_mem_data(out, &data);
  std::string hello = size > 0 ? std::string(data, static_cast<size_t>(size)) : std::string();
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  return hello;
}

// ClientHellos, each on its own connection accepted beforehand, sent while the server is
// stopped for 300 ms: all of them then wait past the handshake target (a quarter of
// --shed-lag, 5 ms) at once. Returns the connections, their hellos sent.
std::vector<RawConnection> hellos_that_waited(ServerProcess& server, int count, const std::string& hello) {
  std::vector<RawConnection> connections;
  for (int i = 0; i < count; ++i) connections.emplace_back(server.tls_port());
  EXPECT_EQ(wait_for_metric(server, "decisiond_http_connections_open", {{"listener", "tls"}}, count),
            static_cast<double>(count));
  EXPECT_TRUE(server.stop_all_threads());
  for (RawConnection& c : connections) EXPECT_TRUE(c.send(hello));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  server.send_signal(SIGCONT);
  return connections;
}

// A full handshake costs a core about twenty decisions. A burst of new connections is
// served whole however late (8 handshakes, a few ms, are within the budget of a
// quarter of each 100 ms); a flood that has spent the budget is shed: ClientHellos past
// the target are closed unanswered and counted, and the next client is served.
TEST_F(TlsAbuse, ABurstOfHandshakesIsServedAndAFloodPastTheBudgetIsShed) {
  server_ = std::make_unique<ServerProcess>(
      standard_flags({"--cores=1", "--tls-listen=127.0.0.1:0", "--tls-cert=" + certs_.ecdsa_cert(),
                      "--tls-key=" + certs_.ecdsa_key(), "--shed-lag=20ms", "--max-connections-per-core=4000"}));
  ASSERT_TRUE(server_->serving()) << server_->start_error();
  const std::string hello = recorded_client_hello();
  ASSERT_GT(hello.size(), 100u);

  {
    // 8 of them: 0.3 to 0.8 ms each on the 2-vCPU VMs this runs on, well within the 25 ms
    // budget; 4 under ASan, where each costs about 4 times as much.
    std::vector<RawConnection> burst =
        hellos_that_waited(*server_, decision::testing::kAddressSanitizer ? 4 : 8, hello);
    // Each is answered (the server's first flight) and kept open: by then, long since.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    for (RawConnection& c : burst) {
      EXPECT_FALSE(c.wait_for_close(std::chrono::milliseconds(5)));
      EXPECT_FALSE(c.unread().empty());
    }
    const std::string page = scrape_metrics(*server_);
    EXPECT_EQ(sum_samples(page, "decisiond_tls_handshakes_total", {{"outcome", "shed"}}), 0.0)
        << "handshake time: " << sum_samples(page, "decisiond_tls_handshake_seconds_total", {}).value_or(-1) << " s";
  }
  // Far more handshakes than a quarter of 100 ms of one core can do (about 0.3 ms each here,
  // 4 times that under ASan): once the budget is spent, the rest are shed.
  std::vector<RawConnection> flood = hellos_that_waited(*server_, 2000, hello);
  const std::optional<std::string> page = wait_for_page(*server_, [](const std::string& p) {
    return sum_samples(p, "decisiond_tls_handshakes_total", {{"outcome", "shed"}}).value_or(0) > 0;
  });
  ASSERT_TRUE(page.has_value()) << "no handshake shed";
  // The budget (a quarter of 100 ms) was spent before any was shed.
  EXPECT_GE(sum_samples(*page, "decisiond_tls_handshake_seconds_total", {}).value_or(0), 0.025);
  flood.clear();
  // Once the flood is gone, a new client's handshake waits for nothing: served.
  EXPECT_EQ(wait_for_metric(*server_, "decisiond_http_connections_open", {{"listener", "tls"}}, 0,
                            std::chrono::seconds(20)),
            0.0);
  expect_still_serving();
}

}  // namespace
}  // namespace integration
