// decisiond behind a real HAProxy (docs/operations.md, "A balancer in front"): in TCP mode
// with send-proxy-v2 in front of the TLS listener (TLS passes through; the PROXY header
// HAProxy writes names the client), and in HTTP mode appending X-Forwarded-For in front of
// the plain listener. The clients are curl (libcurl, verifying the certificate) and the
// test's own raw sockets; HAProxy gives each frontend's clients a GeoIP test address with
// set-src, as a balancer on the open network would see them.
#include <string>

#include "gtest/gtest.h"
#include "tests/integration/client_address/geo_server.h"
#include "tests/integration/client_address/haproxy_process.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"

namespace integration {
namespace {

// Frontend 0: clients seen as a Swedish address; 1: as an American one. Both pass TLS
// through to the decisiond TLS port with a PROXY v2 header.
std::string tcp_mode(uint16_t tls_port) {
  const std::string backend = "127.0.0.1:" + std::to_string(tls_port);
  return "frontend eu\n  mode tcp\n  bind 127.0.0.1:{port 0}\n"
         "  tcp-request connection set-src ipv4(" + std::string(kSwedishIp) + ")\n  default_backend decisiond\n\n"
         "frontend us\n  mode tcp\n  bind 127.0.0.1:{port 1}\n"
         "  tcp-request connection set-src ipv4(" + std::string(kAmericanIp) + ")\n  default_backend decisiond\n\n"
         "backend decisiond\n  mode tcp\n  server tls " + backend + " send-proxy-v2\n";
}

// One frontend in HTTP mode appending X-Forwarded-For with the client it sees (127.0.0.1,
// or what a client's own header says before it) to the plain listener.
std::string http_mode(uint16_t public_port) {
  return "frontend web\n  mode http\n  bind 127.0.0.1:{port 0}\n  option forwardfor\n  default_backend decisiond\n\n"
         "backend decisiond\n  mode http\n  server plain 127.0.0.1:" + std::to_string(public_port) + "\n";
}

std::string via_curl(GeoServer& geo, uint16_t port, const std::string& body) {
  CurlSession curl;
  curl.trust(geo.certs().ecdsa_cert());
  const CurlReply reply = curl.post("https://127.0.0.1:" + std::to_string(port) + "/v1/decision", body);
  if (reply.status != 200) return "<status " + std::to_string(reply.status) + ": " + reply.body + ">";
  return reply.body;
}

TEST(BehindHaproxy, TcpModeWithSendProxyV2InFrontOfTheTlsListenerPlacesTheClient) {
  GeoServer geo({"--trusted-proxies=127.0.0.1"});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  HaproxyProcess haproxy(tcp_mode(geo.server().tls_port()), 2);
  ASSERT_TRUE(haproxy.ready()) << haproxy.error();
  // The fixture's own probes of HAProxy's ports reached decisiond too: count from here.
  const auto headers = [&geo] {
    return sum_samples(scrape_metrics(geo.server()), "decisiond_proxy_protocol_headers_total",
                       {{"listener", "tls"}, {"command", "proxy"}})
        .value_or(-100);
  };
  const double headers_before = headers();
  EXPECT_EQ(geo.token_user_id(via_curl(geo, haproxy.port(0), kDecisionWithoutIp)), "")
      << "an EU address without consent: no user id, no caps";
  EXPECT_EQ(geo.token_user_id(via_curl(geo, haproxy.port(1), kDecisionWithoutIp)), kUserId);
  EXPECT_EQ(geo.token_user_id(via_curl(geo, haproxy.port(0), decision_with_ip(kAmericanIp))), kUserId)
      << "user.ip in the body wins";
  // At least one PROXY v2 header per decision (a probe's late backend connection may add one).
  EXPECT_GE(headers() - headers_before, 3.0);
  const std::string page = scrape_metrics(geo.server());
  for (const char* reason : {"untrusted", "version", "command", "family", "address_length", "oversized", "tlv"}) {
    EXPECT_EQ(sum_samples(page, "decisiond_proxy_protocol_refused_total", {{"listener", "tls"}, {"reason", reason}}),
              0.0)
        << reason << ": HAProxy's headers are all read";
  }
}

TEST(BehindHaproxy, TcpModeFromAnUntrustedBalancerIsRefusedAndCounted) {
  GeoServer geo({"--trusted-proxies=10.0.0.0/8"});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  HaproxyProcess haproxy(tcp_mode(geo.server().tls_port()), 2);
  ASSERT_TRUE(haproxy.ready()) << haproxy.error();
  CurlSession curl;
  curl.trust(geo.certs().ecdsa_cert());
  const CurlReply reply =
      curl.post("https://127.0.0.1:" + std::to_string(haproxy.port(0)) + "/v1/decision", kDecisionWithoutIp);
  EXPECT_EQ(reply.status, 0) << "no reply: the connection was closed at its header";
  EXPECT_GE(sum_samples(scrape_metrics(geo.server()), "decisiond_proxy_protocol_refused_total",
                        {{"listener", "tls"}, {"reason", "untrusted"}})
                .value_or(0),
            1.0);
}

TEST(BehindHaproxy, HttpModeWithXForwardedForPlacesTheClient) {
  GeoServer geo({"--trusted-proxies=127.0.0.1"});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  HaproxyProcess haproxy(http_mode(geo.server().public_port()), 1);
  ASSERT_TRUE(haproxy.ready()) << haproxy.error();
  const auto decide = [&](const std::string& forwarded_for, const std::string& body) {
    RawConnection connection(haproxy.port(0));
    const std::vector<std::string> headers =
        forwarded_for.empty() ? std::vector<std::string>{} : std::vector<std::string>{"X-Forwarded-For: " + forwarded_for};
    connection.send(decision_request_bytes(body, headers));
    const std::optional<HttpReply> reply = connection.read_reply();
    return reply ? reply->body : "<" + connection.last_error() + ">";
  };
  // HAProxy appends 127.0.0.1 (trusted); the hop before it is the client.
  EXPECT_EQ(geo.token_user_id(decide(kSwedishIp, kDecisionWithoutIp)), "");
  EXPECT_EQ(geo.token_user_id(decide(std::string(kSwedishIp) + ", " + kAmericanIp, kDecisionWithoutIp)), kUserId)
      << "the nearest untrusted hop, not the farthest";
  EXPECT_EQ(geo.token_user_id(decide(kFrenchIp, kDecisionWithoutIp)), "");
  EXPECT_EQ(geo.token_user_id(decide("", kDecisionWithoutIp)), kUserId) << "127.0.0.1 alone: nowhere";
  EXPECT_EQ(geo.token_user_id(decide(kSwedishIp, decision_with_ip(kAmericanIp))), kUserId) << "user.ip wins";
  const std::string page = scrape_metrics(geo.server());
  EXPECT_EQ(sum_samples(page, "decisiond_forwarded_client_total",
                        {{"listener", "public"}, {"header", "x_forwarded_for"}, {"outcome", "address"}}),
            5.0)
      << page;
}

}  // namespace
}  // namespace integration
