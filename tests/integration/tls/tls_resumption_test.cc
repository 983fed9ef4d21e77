// Resumption on any node (docs/tls.md): session tickets sealed with the keys of
// --tls-ticket-keys, a file of keys.json's format that decisiond-keys manages. A ticket one
// node issued resumes on another node that holds the same file, without a full handshake
// (openssl s_client shows "Reused"); on a node with other keys it does not; after a rotation
// the old key still opens its tickets.
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/keys_tool.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tls/test_certificates.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration {
namespace {

class TlsResumption : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(certs_.ok()) << certs_.error(); }

  std::vector<std::string> flags(const std::string& ticket_keys) const {
    return standard_flags({"--tls-listen=127.0.0.1:0", "--tls-cert=" + certs_.ecdsa_cert(),
                           "--tls-key=" + certs_.ecdsa_key(), "--tls-ticket-keys=" + ticket_keys});
  }
  // A whole HTTP exchange through s_client, so that a TLS 1.3 ticket (sent after the
  // handshake) is read: "New" or "Reused", and the session saved to or read from a file.
  std::string exchange(const ServerProcess& server, const std::string& options) const {
    const CommandOutput out = run_command(
        "printf 'GET /v1/decision HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' | timeout 10 "
        "openssl s_client -ign_eof -connect 127.0.0.1:" +
        std::to_string(server.tls_port()) + " -servername localhost -CAfile " + certs_.ecdsa_cert() + " " + options);
    for (const char* kind : {"Reused, ", "New, "}) {
      const size_t at = out.out.find(kind);
      if (at != std::string::npos) return out.out.substr(at, out.out.find('\n', at) - at);
    }
    return out.out;
  }

  TestCertificates certs_;
};

TEST_F(TlsResumption, ATicketFromOneNodeResumesOnAnotherSharingTheKeyFile) {
  const std::string shared = certs_.dir() + "/shared-tickets.json";
  ServerProcess first(flags(shared));
  ASSERT_TRUE(first.serving()) << first.start_error();
  struct stat st {};
  ASSERT_EQ(::stat(shared.c_str(), &st), 0) << "created on first start";
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ServerProcess second(flags(shared));
  ASSERT_TRUE(second.serving()) << second.start_error();
  ServerProcess stranger(flags(certs_.dir() + "/other-tickets.json"));
  ASSERT_TRUE(stranger.serving()) << stranger.start_error();

  for (const char* protocol : {"-tls1_3", "-tls1_2"}) {
    const std::string session = certs_.dir() + "/session" + protocol + ".pem";
    EXPECT_EQ(exchange(first, std::string(protocol) + " -sess_out " + session).rfind("New, ", 0), 0u) << protocol;
    const std::string on_first = exchange(first, std::string(protocol) + " -sess_in " + session);
    EXPECT_EQ(on_first.rfind("Reused, ", 0), 0u) << protocol << ": " << on_first;
    const std::string on_second = exchange(second, std::string(protocol) + " -sess_in " + session);
    EXPECT_EQ(on_second.rfind("Reused, ", 0), 0u) << protocol << ": " << on_second;
    const std::string on_stranger = exchange(stranger, std::string(protocol) + " -sess_in " + session);
    EXPECT_EQ(on_stranger.rfind("New, ", 0), 0u) << protocol << ": other keys, a full handshake: " << on_stranger;
  }
  // decisiond-keys manages the file as it manages keys.json.
  const ToolRun fingerprint = run_keys_binary("--key-file=" + shared + " fingerprint");
  EXPECT_EQ(fingerprint.status, 0) << fingerprint.out;
  EXPECT_EQ(run_keys_binary("compare " + shared + " " + shared).status, 0);
  EXPECT_NE(run_keys_binary("compare " + shared + " " + certs_.dir() + "/other-tickets.json").status, 0);
}

// The ticket keys a first start created are on disk: a node killed with SIGKILL and started
// again on the same file resumes the tickets it issued before.
TEST_F(TlsResumption, TicketsIssuedBeforeASigkillResumeAfterTheRestart) {
  const std::string file = certs_.dir() + "/kept-tickets.json";
  const std::string session = certs_.dir() + "/before-kill.pem";
  {
    ServerProcess before(flags(file));
    ASSERT_TRUE(before.serving()) << before.start_error();
    ASSERT_EQ(exchange(before, "-tls1_3 -sess_out " + session).rfind("New, ", 0), 0u);
    before.send_signal(SIGKILL);
    ASSERT_TRUE(before.wait_for_exit().has_value());
  }
  ServerProcess after(flags(file));
  ASSERT_TRUE(after.serving()) << after.start_error();
  const std::string resumed = exchange(after, "-tls1_3 -sess_in " + session);
  EXPECT_EQ(resumed.rfind("Reused, ", 0), 0u) << resumed;
}

TEST_F(TlsResumption, AfterARotationAndSighupTheOldKeyStillOpensItsTickets) {
  const std::string file = certs_.dir() + "/tickets.json";
  ServerProcess server(flags(file));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string session = certs_.dir() + "/old.pem";
  ASSERT_EQ(exchange(server, "-tls1_3 -sess_out " + session).rfind("New, ", 0), 0u);
  const ToolRun rotated = run_keys_binary("--key-file=" + file + " rotate");
  ASSERT_EQ(rotated.status, 0) << rotated.out;
  server.send_signal(SIGHUP);
  ASSERT_TRUE(updates::wait_for_stderr(server, "TLS certificates reloaded")) << server.stderr_text();
  const std::string resumed = exchange(server, "-tls1_3 -sess_in " + session);
  EXPECT_EQ(resumed.rfind("Reused, ", 0), 0u) << resumed;
  // Retired, the old key opens nothing: a full handshake.
  ASSERT_EQ(run_keys_binary("--key-file=" + file + " retire --id=1").status, 0);
  server.send_signal(SIGHUP);
  ASSERT_TRUE(updates::wait_for_stderr(server, "TLS certificates reloaded", std::chrono::seconds(10), 2)) << server.stderr_text();
  const std::string after = exchange(server, "-tls1_3 -sess_in " + session);
  EXPECT_EQ(after.rfind("New, ", 0), 0u) << after;
}

}  // namespace
}  // namespace integration
