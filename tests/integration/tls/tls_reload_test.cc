// SIGHUP reloads the TLS certificates and keys (docs/tls.md "Reloading"): new handshakes get
// the new ones, open connections keep theirs, and files that do not load keep the set in
// force, logged and counted. Each certificate's expiry is in /metrics.
#include <signal.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tls/test_certificates.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration {
namespace {

constexpr const char* kBody = R"({"placements":[{"key":"home_top","count":1}]})";

// The subject of the certificate a new handshake gets.
std::string served_subject(const ServerProcess& server) {
  const CommandOutput out = run_command("timeout 10 openssl s_client -connect 127.0.0.1:" +
                                        std::to_string(server.tls_port()) + " -servername localhost");
  const size_t at = out.out.find("subject=");
  return at == std::string::npos ? out.out : out.out.substr(at, out.out.find('\n', at) - at);
}

TEST(TlsReload, SighupServesNewCertificatesToNewHandshakesWhileOpenConnectionsKeepTheirs) {
  TestCertificates certs;
  ASSERT_TRUE(certs.ok()) << certs.error();
  ASSERT_TRUE(certs.make_ecdsa("first", "first")) << certs.error();
  ASSERT_TRUE(certs.make_ecdsa("second", "second")) << certs.error();
  const std::string live_cert = certs.dir() + "/live.pem";
  const std::string live_key = certs.dir() + "/live.key";
  const auto put = [&](const std::string& name) {
    std::filesystem::copy_file(certs.dir() + "/" + name + ".pem", live_cert,
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(certs.dir() + "/" + name + ".key", live_key,
                               std::filesystem::copy_options::overwrite_existing);
    chmod(live_key.c_str(), 0600);
  };
  put("first");
  ServerProcess server(
      standard_flags({"--tls-listen=127.0.0.1:0", "--tls-cert=" + live_cert, "--tls-key=" + live_key}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  EXPECT_NE(served_subject(server).find("CN = first"), std::string::npos) << served_subject(server);
  CurlSession open_connection;
  open_connection.trust(certs.dir() + "/first.pem");
  ASSERT_EQ(open_connection.post(server.tls_url("/v1/decision"), kBody).status, 200);
  std::string page = scrape_metrics(server);
  const double first_expiry =
      sum_samples(page, "decisiond_tls_certificate_expiry_timestamp_seconds", {{"subject", "CN=first"}}).value_or(0);
  EXPECT_GT(first_expiry, 1.7e9) << page;

  put("second");
  server.send_signal(SIGHUP);
  ASSERT_TRUE(updates::wait_for_stderr(server, "TLS certificates reloaded")) << server.stderr_text();
  EXPECT_NE(served_subject(server).find("CN = second"), std::string::npos) << served_subject(server);
  const CurlReply kept = open_connection.post(server.tls_url("/v1/decision"), kBody);
  EXPECT_EQ(kept.status, 200);
  EXPECT_EQ(kept.new_connections, 0) << "the open connection goes on with the certificate it began with";
  page = scrape_metrics(server);
  EXPECT_GT(sum_samples(page, "decisiond_tls_certificate_expiry_timestamp_seconds", {{"subject", "CN=second"}})
                .value_or(0),
            1.7e9)
      << page;
  EXPECT_FALSE(sum_samples(page, "decisiond_tls_certificate_expiry_timestamp_seconds", {{"subject", "CN=first"}})
                   .has_value())
      << page;
  EXPECT_EQ(sum_samples(page, "decisiond_tls_certificate_reloads_total", {{"result", "applied"}}), 1.0) << page;

  // A key others may read: refused, logged and counted; the second certificate stays.
  chmod(live_key.c_str(), 0644);
  server.send_signal(SIGHUP);
  ASSERT_TRUE(updates::wait_for_stderr(server, "TLS certificates refused")) << server.stderr_text();
  EXPECT_NE(server.stderr_text().find(live_key), std::string::npos) << server.stderr_text();
  EXPECT_NE(served_subject(server).find("CN = second"), std::string::npos) << served_subject(server);
  EXPECT_EQ(sum_samples(scrape_metrics(server), "decisiond_tls_certificate_reloads_total", {{"result", "refused"}}),
            1.0);
}

}  // namespace
}  // namespace integration
