// The client's address (docs/client_address.md) on the real binary: the TCP peer, a PROXY
// protocol v2 header sent as raw bytes from a trusted 127.0.0.1 on the plain and the TLS
// listener, refusals counted, user.ip winning, and the access log naming the client.
// Loopback is the only network, so the addresses that place users are the GeoIP test
// database's, carried by PROXY headers and X-Forwarded-For.
#include <signal.h>

#include <string>

#include "gtest/gtest.h"
#include "tests/integration/client_address/geo_server.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"
#include "tests/unit/proxy_protocol/proxy_header_bytes.h"

namespace integration {
namespace {

using proxy_protocol::v2_header;
using proxy_protocol::v2_inet;
using proxy_protocol::v2_inet6;

constexpr char kTrustLoopback[] = "--trusted-proxies=127.0.0.1/32,::1";

// The body of the reply to a decision sent on a plain connection after preface.
std::string plain_after_preface(ServerProcess& server, const std::string& preface, const std::string& request) {
  RawConnection connection(server.public_port());
  if (!connection.connected()) return "<not connected>";
  connection.send(preface + request);
  const std::optional<HttpReply> reply = connection.read_reply();
  if (!reply) return "<" + connection.last_error() + ">";
  return reply->body;
}

double refused(ServerProcess& server, const std::string& listener, const std::string& reason) {
  return sum_samples(scrape_metrics(server), "decisiond_proxy_protocol_refused_total",
                     {{"listener", listener}, {"reason", reason}})
      .value_or(-1);
}

TEST(ClientAddress, AnUntrustedPeersForwardingHeadersDoNotPlaceTheUser) {
  GeoServer geo({});  // no --trusted-proxies: the TCP peer, 127.0.0.1, is the client
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  const std::string body = plain_after_preface(
      geo.server(), "", decision_request_bytes(kDecisionWithoutIp, {"X-Forwarded-For: " + std::string(kSwedishIp)}));
  EXPECT_EQ(geo.token_user_id(body), kUserId) << "127.0.0.1 is nowhere: the id travels";
}

TEST(ClientAddress, ATrustedPeersProxyHeaderPlacesTheUserOnThePlainListener) {
  GeoServer geo({kTrustLoopback});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  const std::string request = decision_request_bytes(kDecisionWithoutIp);
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), v2_inet(kSwedishIp, "127.0.0.1", 5000, 80), request)),
            "")
      << "in the EU without consent: no id, no caps";
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), v2_inet6(kFrenchIp, "::1", 5000, 80), request)), "")
      << "IPv6";
  EXPECT_EQ(
      geo.token_user_id(plain_after_preface(geo.server(), v2_inet(kAmericanIp, "127.0.0.1", 5000, 80), request)),
      kUserId);
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), v2_header(0x20, 0x00, ""), request)), kUserId)
      << "LOCAL: the peer stands";
  const std::string page = scrape_metrics(geo.server());
  EXPECT_EQ(sum_samples(page, "decisiond_proxy_protocol_headers_total", {{"listener", "public"}, {"command", "proxy"}}),
            3.0)
      << page;
}

TEST(ClientAddress, ATrustedPeersProxyHeaderPlacesTheUserOnTheTlsListener) {
  GeoServer geo({kTrustLoopback});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  const std::string request = decision_request_bytes(kDecisionWithoutIp);
  const uint16_t port = geo.server().tls_port();
  EXPECT_EQ(geo.token_user_id(https_after_preface(port, v2_inet(kSwedishIp, "127.0.0.1", 1, 443), request, geo.certs())),
            "");
  EXPECT_EQ(
      geo.token_user_id(https_after_preface(port, v2_inet(kAmericanIp, "127.0.0.1", 1, 443), request, geo.certs())),
      kUserId);
  EXPECT_EQ(geo.token_user_id(https_after_preface(port, "", request, geo.certs())), kUserId) << "no header: the peer";
  const std::string page = scrape_metrics(geo.server());
  EXPECT_EQ(sum_samples(page, "decisiond_proxy_protocol_headers_total", {{"listener", "tls"}, {"command", "proxy"}}),
            2.0)
      << page;
}

TEST(ClientAddress, UserIpInTheBodyWinsOverTheProxyHeader) {
  GeoServer geo({kTrustLoopback});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), v2_inet(kSwedishIp, "127.0.0.1", 1, 80),
                                                  decision_request_bytes(decision_with_ip(kAmericanIp)))),
            kUserId);
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), v2_inet(kAmericanIp, "127.0.0.1", 1, 80),
                                                  decision_request_bytes(decision_with_ip(kSwedishIp)))),
            "");
}

TEST(ClientAddress, AProxyHeaderFromAnUntrustedPeerClosesTheConnectionAndIsCounted) {
  GeoServer geo({"--trusted-proxies=10.0.0.0/8"});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  const std::string header = v2_inet(kSwedishIp, "127.0.0.1", 1, 80);
  RawConnection plain(geo.server().public_port());
  ASSERT_TRUE(plain.send(header + decision_request_bytes(kDecisionWithoutIp)));
  EXPECT_TRUE(plain.wait_for_close());
  EXPECT_EQ(plain.unread(), "") << "closed without a reply";
  const std::string tls = https_after_preface(geo.server().tls_port(), header, decision_request_bytes(kDecisionWithoutIp),
                                              geo.certs());
  EXPECT_EQ(tls.find("HTTP/1.1"), std::string::npos) << tls;
  EXPECT_EQ(refused(geo.server(), "public", "untrusted"), 1.0);
  EXPECT_EQ(refused(geo.server(), "tls", "untrusted"), 1.0);
  // The listeners serve on.
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), "", decision_request_bytes(kDecisionWithoutIp))),
            kUserId);
}

TEST(ClientAddress, AMalformedProxyHeaderClosesTheConnectionAndIsCountedByReason) {
  GeoServer geo({kTrustLoopback});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  const std::string request = decision_request_bytes(kDecisionWithoutIp);
  struct Case {
    std::string header;
    const char* reason;
  };
  std::string oversized = v2_header(0x21, 0x11, std::string(12, '\0'));
  oversized[14] = '\x10';  // 4096 bytes announced
  const Case cases[] = {
      {v2_header(0x21, 0x51, std::string(12, '\0')), "family"},
      {v2_header(0x11, 0x11, std::string(12, '\0')), "version"},
      {v2_header(0x23, 0x11, std::string(12, '\0')), "command"},
      {v2_header(0x21, 0x21, std::string(12, '\0')), "address_length"},
      {oversized, "oversized"},
      {v2_inet(kSwedishIp, "127.0.0.1", 1, 80, std::string("\x01\x00\x09", 3)), "tlv"},
      {"PROXY TCP4 89.160.20.112 127.0.0.1 1 80\r\n", "version"},
  };
  for (const Case& c : cases) {
    RawConnection connection(geo.server().public_port());
    ASSERT_TRUE(connection.send(c.header + request)) << c.reason;
    EXPECT_TRUE(connection.wait_for_close()) << c.reason;
    EXPECT_EQ(connection.unread(), "") << c.reason;
  }
  EXPECT_EQ(https_after_preface(geo.server().tls_port(), cases[0].header, request, geo.certs()).find("HTTP/1.1"),
            std::string::npos);
  const std::string page = scrape_metrics(geo.server());
  for (const char* reason : {"family", "command", "address_length", "oversized", "tlv"}) {
    EXPECT_EQ(sum_samples(page, "decisiond_proxy_protocol_refused_total", {{"listener", "public"}, {"reason", reason}}),
              1.0)
        << reason << "\n" << page;
  }
  EXPECT_EQ(refused(geo.server(), "public", "version"), 2.0);
  EXPECT_EQ(refused(geo.server(), "tls", "family"), 1.0);
  EXPECT_EQ(refused(geo.server(), "public", "untrusted"), 0.0);
}

TEST(ClientAddress, TheAccessLogNamesTheClientSoFound) {
  GeoServer geo({kTrustLoopback});
  ASSERT_TRUE(geo.server().serving()) << geo.server().start_error();
  const std::string request = decision_request_bytes(kDecisionWithoutIp);
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), v2_inet(kSwedishIp, "127.0.0.1", 1, 80), request)), "");
  EXPECT_EQ(geo.token_user_id(https_after_preface(geo.server().tls_port(), v2_inet6(kFrenchIp, "::1", 1, 443), request,
                                                  geo.certs())),
            "");
  EXPECT_EQ(geo.token_user_id(plain_after_preface(
                geo.server(), "", decision_request_bytes(kDecisionWithoutIp, {"X-Forwarded-For: 216.160.83.56"}))),
            kUserId);
  EXPECT_EQ(geo.token_user_id(plain_after_preface(geo.server(), "", request)), kUserId);
  geo.server().send_signal(SIGTERM);  // a clean stop writes what is held
  ASSERT_TRUE(geo.server().wait_for_exit());
  std::string decisions;
  for (const std::string& line : read_access_lines(geo.state_dir())) {
    if (line.find(R"("route":"decision")") != std::string::npos) decisions += line + "\n";
  }
  EXPECT_NE(decisions.find(R"("listener":"public")"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find(R"("client":"89.160.20.112")"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find(R"("client":"2a02:cfc0::1")"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find(R"("client":"216.160.83.56")"), std::string::npos) << "X-Forwarded-For\n" << decisions;
  EXPECT_NE(decisions.find(R"("client":"127.0.0.1")"), std::string::npos) << "the peer itself\n" << decisions;
}

TEST(ClientAddress, ABadTrustedProxiesListStopsTheStartNamingTheFlag) {
  const FinishedRun run = run_to_exit(standard_flags({"--trusted-proxies=10.0.0.1/8"}));
  ASSERT_TRUE(run.exit.has_value());
  EXPECT_EQ(run.exit->code, 2) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("--trusted-proxies"), std::string::npos) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("10.0.0.1/8"), std::string::npos) << run.stderr_text;
}

}  // namespace
}  // namespace integration
