#pragma once
// decisiond with the GeoIP test database (../shared/fixtures/geoip) and one untargeted ad,
// on a plain and a TLS listener, for the client-address tests (docs/client_address.md).
// Whether a decision placed its user in the GDPR territory shows in its impression token:
// for a user there without consent the user id is left out of the token, by the same rule
// that reads and writes no cap state for them (docs/caps.md).
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tls/test_certificates.h"
#include "tests/integration/token_keys.h"

namespace integration {

// GeoIP test database facts (../shared/fixtures/README.md).
inline constexpr char kSwedishIp[] = "89.160.20.112";   // SE, flagged EU
inline constexpr char kFrenchIp[] = "2a02:cfc0::1";     // FR, flagged EU
inline constexpr char kAmericanIp[] = "216.160.83.56";  // US
inline constexpr char kUserId[] = "client-address-user";
// No user.ip, no consent: where the client is decides whether its id may be used.
inline constexpr char kDecisionWithoutIp[] =
    R"({"placements":[{"key":"slot","count":1}],"user":{"id":"client-address-user"}})";

std::string decision_with_ip(const std::string& ip);
// A raw HTTP/1.1 POST /v1/decision of body that closes the connection after its reply.
std::string decision_request_bytes(const std::string& body, const std::vector<std::string>& extra_headers = {});

class GeoServer {
 public:
  // extra: more flags, such as --trusted-proxies=...
  explicit GeoServer(std::vector<std::string> extra);
  ServerProcess& server() { return *server_; }
  const TestCertificates& certs() const { return certs_; }
  const std::string& state_dir() const { return state_.path(); }

  // The user id sealed in the one impression token of a decision reply's body: the id, ""
  // when it was left out (the user is in the territory without consent), or "<...>" saying
  // why there is no token to read.
  std::string token_user_id(const std::string& reply_body);

 private:
  StateDirWithKeys state_;
  TempFile catalog_;
  TestCertificates certs_;
  std::unique_ptr<ServerProcess> server_;
};

// Every line of every core's access log files.
std::vector<std::string> read_access_lines(const std::string& state_dir);

// The reply to request, sent over TLS to 127.0.0.1:port after preface in clear (a PROXY
// header, or nothing), by Python's ssl module verifying ca_file: its status line and body,
// or "<error: ...>" / "<closed>" when the server closed first.
std::string https_after_preface(uint16_t port, const std::string& preface, const std::string& request,
                                const TestCertificates& certs);

}  // namespace integration
