#include "tests/integration/client_address/geo_server.h"

#include <filesystem>
#include <fstream>

#include "tests/integration/test_base_url.h"
#include "tracking/tokens/tracking_event.h"

namespace integration {

namespace {

std::string hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

// argv: port, CA file, preface in hex, request in hex. Prints the reply, or what went wrong.
constexpr char kHttpsScript[] = R"(import socket, ssl, sys
port, cafile, preface, request = int(sys.argv[1]), sys.argv[2], bytes.fromhex(sys.argv[3]), bytes.fromhex(sys.argv[4])
raw = socket.create_connection(('127.0.0.1', port), timeout=5)
raw.sendall(preface)
try:
    ctx = ssl.create_default_context(cafile=cafile)
    s = ctx.wrap_socket(raw, server_hostname='localhost')
    s.sendall(request)
    reply = b''
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        reply += chunk
except (ssl.SSLError, ConnectionError, OSError) as e:
    print('<error: %s>' % e)
    sys.exit(0)
print(reply.decode('utf-8', 'replace') if reply else '<closed>')
)";

}  // namespace

std::string decision_with_ip(const std::string& ip) {
  return R"({"placements":[{"key":"slot","count":1}],"user":{"id":")" + std::string(kUserId) + R"(","ip":")" + ip +
         R"("}})";
}

std::string decision_request_bytes(const std::string& body, const std::vector<std::string>& extra_headers) {
  std::string out = "POST /v1/decision HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";
  for (const std::string& line : extra_headers) out += line + "\r\n";
  return out + "Connection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

GeoServer::GeoServer(std::vector<std::string> extra)
    : catalog_("catalog.json", test_catalog_json({{1, "slot"}}, {{.id = 1, .placement_ids = {1}}})) {
  std::vector<std::string> flags = {"--catalog=" + catalog_.path(),
                                    "--geoip-db=" GEOIP_FIXTURE_DIR "/GeoIP2-City-Test.mmdb",
                                    kTestBaseUrlFlag,
                                    state_.flag(),
                                    "--access-log-sample=1",
                                    "--tls-listen=127.0.0.1:0",
                                    "--tls-cert=" + certs_.ecdsa_cert(),
                                    "--tls-key=" + certs_.ecdsa_key()};
  flags.insert(flags.end(), extra.begin(), extra.end());
  server_ = std::make_unique<ServerProcess>(standard_flags(flags));
}

std::string GeoServer::token_user_id(const std::string& reply_body) {
  const size_t body_start = reply_body.find('{');
  if (body_start == std::string::npos) return "<no JSON in: " + reply_body + ">";
  const std::vector<std::string> tokens = impression_tokens(reply_body.substr(body_start), kTestTrackingPrefix);
  if (tokens.size() != 1) return "<not one impression token in: " + reply_body + ">";
  std::string storage;
  tracking::TrackingEvent event;
  const ::testing::AssertionResult opened = state_.Open(tokens[0], storage, event);
  if (!opened) return std::string("<unreadable token: ") + opened.message() + ">";
  return event.user_id ? std::string(*event.user_id) : std::string();
}

std::vector<std::string> read_access_lines(const std::string& state_dir) {
  std::vector<std::string> lines;
  const std::filesystem::path root = state_dir + "/access";
  if (!std::filesystem::exists(root)) return lines;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  return lines;
}

std::string https_after_preface(uint16_t port, const std::string& preface, const std::string& request,
                                const TestCertificates& certs) {
  const std::string script = certs.write("https_after_preface.py", kHttpsScript, 0644);
  return run_command("timeout 20 /usr/bin/python3 " + script + " " + std::to_string(port) + " " + certs.ecdsa_cert() +
                     " '" + hex(preface) + "' " + hex(request))
      .out;
}

}  // namespace integration
