// The HTTPS listener as other people's TLS stacks see it (issue 30 point 7): sslscan's
// findings (only TLS 1.2 and 1.3, every suite AEAD with forward secrecy, only X25519 and
// P-256, no renegotiation), and Python's ssl module with certificate and host-name checks on.
#include <regex>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tls/test_certificates.h"

namespace integration {
namespace {

class TlsClients : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(certs_.ok()) << certs_.error();
    server_ = std::make_unique<ServerProcess>(standard_flags(
        {"--tls-listen=127.0.0.1:0", "--tls-cert=" + certs_.ecdsa_cert(), "--tls-key=" + certs_.ecdsa_key(),
         "--tls-cert=" + certs_.rsa_cert(), "--tls-key=" + certs_.rsa_key()}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(server_->tls_port()); }

  TestCertificates certs_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(TlsClients, SslscanFindsOnlyTls12And13AeadSuitesWithForwardSecrecyAndNoRenegotiation) {
  const CommandOutput scan = run_command("timeout 120 sslscan --no-colour " + address());
  ASSERT_EQ(scan.status, 0) << scan.out;
  for (const char* line : {"SSLv2     disabled", "SSLv3     disabled", "TLSv1.0   disabled", "TLSv1.1   disabled",
                           "TLSv1.2   enabled", "TLSv1.3   enabled", "Session renegotiation not supported"}) {
    EXPECT_NE(scan.out.find(line), std::string::npos) << line << "\n" << scan.out;
  }
  // "Accepted  TLSv1.2  256 bits  ECDHE-RSA-AES256-GCM-SHA384 Curve 25519 DHE 253"
  static const std::regex kSuite(R"((Preferred|Accepted)\s+(TLSv1\.[0-3]|SSLv[23])\s+\d+ bits\s+(\S+))");
  int suites = 0;
  std::istringstream lines(scan.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, kSuite)) continue;
    ++suites;
    const std::string protocol = match[2];
    const std::string suite = match[3];
    EXPECT_TRUE(protocol == "TLSv1.2" || protocol == "TLSv1.3") << line;
    EXPECT_TRUE(suite.find("GCM") != std::string::npos || suite.find("CHACHA20") != std::string::npos)
        << "not AEAD: " << line;
    EXPECT_TRUE(protocol == "TLSv1.3" || suite.rfind("ECDHE-", 0) == 0) << "no forward secrecy: " << line;
  }
  EXPECT_GE(suites, 6) << scan.out;  // three of TLS 1.3, and ECDSA and RSA ones of TLS 1.2
  EXPECT_NE(scan.out.find("ECDHE-RSA-"), std::string::npos) << "the RSA certificate's suites" << scan.out;
  // Key exchange: X25519 and P-256 only.
  static const std::regex kGroup(R"(TLSv1\.[23]\s+\d+ bits\s+(\S+))");
  const size_t groups_at = scan.out.find("Server Key Exchange Group(s):");
  ASSERT_NE(groups_at, std::string::npos) << scan.out;
  std::istringstream group_lines(scan.out.substr(groups_at, scan.out.find("\n\n", groups_at) - groups_at));
  for (std::string line; std::getline(group_lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, kGroup)) continue;
    EXPECT_TRUE(match[1] == "x25519" || match[1] == "secp256r1") << line;
  }
}

TEST_F(TlsClients, PythonsSslModuleVerifiesTheCertificateAndTheNameAndGetsADecision) {
  // Debian's python3 and its standard library only.
  const std::string script =
      "import http.client, json, ssl, sys\n"
      "ctx = ssl.create_default_context(cafile=sys.argv[2])\n"
      "assert ctx.check_hostname and ctx.verify_mode == ssl.CERT_REQUIRED\n"
      "c = http.client.HTTPSConnection('localhost', int(sys.argv[1]), context=ctx)\n"
      "c.request('POST', '/v1/decision', body='{\"placements\":[{\"key\":\"home_top\",\"count\":1}]}',\n"
      "          headers={'Content-Type': 'application/json'})\n"
      "r = c.getresponse()\n"
      "body = json.loads(r.read())\n"
      "print(r.status, c.sock.version(), c.sock.selected_alpn_protocol(), body['success'])\n"
      "try:\n"
      "    bad = ssl.create_default_context(cafile=sys.argv[2])\n"
      "    http.client.HTTPSConnection('127.0.0.1', int(sys.argv[1]), context=bad).connect()\n"
      "    w = bad.wrap_socket(__import__('socket').create_connection(('127.0.0.1', int(sys.argv[1]))),\n"
      "                        server_hostname='ads.example.com')\n"
      "    print('wrong name accepted')\n"
      "except ssl.SSLCertVerificationError as e:\n"
      "    print('wrong name refused')\n";
  const std::string path = certs_.write("client.py", script, 0644);
  // Both certificates: OpenSSL serves whichever the client's signature algorithms prefer.
  const std::string bundle = certs_.dir() + "/both.pem";
  ASSERT_EQ(run_command("cat " + certs_.ecdsa_cert() + " " + certs_.rsa_cert() + " > " + bundle).status, 0);
  const CommandOutput out = run_command("timeout 30 /usr/bin/python3 " + path + " " +
                                        std::to_string(server_->tls_port()) + " " + bundle);
  ASSERT_EQ(out.status, 0) << out.out;
  EXPECT_NE(out.out.find("200 TLSv1.3 None True"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("wrong name refused"), std::string::npos) << out.out;
}

}  // namespace
}  // namespace integration
