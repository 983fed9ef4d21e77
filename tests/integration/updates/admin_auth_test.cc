// Who may use the admin plane (docs/operations.md, service/admin_guard.h). Without
// --admin-token only loopback peers are served, on every route; with one, POST routes need
// `Authorization: Bearer <token>` (401 10060 with WWW-Authenticate otherwise) and GET routes
// are open to any peer. The public listener serves no admin route at all.
//
// A non-loopback peer without leaving the machine: the admin listener binds 0.0.0.0 and the
// test connects to one of the machine's own non-loopback addresses, so the server sees
// that address as its peer.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tests/integration/curl_session.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/updates/admin_calls.h"
#include "tests/integration/updates/own_address.h"

namespace integration::updates {
namespace {

constexpr int kAdminUnauthorized = 10060;
constexpr int kNoSuchRoute = 10004;
constexpr char kToken[] = "s3cret-Token_42";

std::string uploaded_catalog() {
  return with_revision(test_catalog_json({{1, "slot"}}, {{.id = 5, .placement_ids = {1}}}), "uploaded");
}

// "http://<address>:<admin port>".
std::string admin_base_at(const std::string& address, const ServerProcess& server) {
  return "http://" + address + ":" + std::to_string(server.admin_port());
}

// The machine's non-loopback address, or why the test cannot run.
#define REQUIRE_OWN_ADDRESS(address)                                                                   \
  const std::optional<std::string> address = own_non_loopback_ipv4();                                 \
  if (!address) GTEST_SKIP() << "this machine has no interface that is up with a non-loopback IPv4 " \
                                "address, so no peer the server would see as non-loopback"

TEST(AdminAuth, LoopbackPeerIsServedWithoutAToken) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  EXPECT_EQ(curl.get(loopback_admin_base(server) + "/metrics").status, 200);
  const CurlReply upload = upload_catalog(curl, loopback_admin_base(server), uploaded_catalog());
  EXPECT_EQ(upload.status, 200) << upload.body;
  EXPECT_EQ(served_revision(server), "uploaded");
}

TEST(AdminAuth, NonLoopbackPeerIsRefusedEveryRouteWithoutAToken) {
  REQUIRE_OWN_ADDRESS(address);
  ServerProcess server(standard_flags({"--admin-listen=0.0.0.0:0"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession remote;
  for (const char* path : {"/metrics", "/healthz", "/readyz"}) {
    const CurlReply reply = remote.get(admin_base_at(*address, server) + path);
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_EQ(reply.status, 401) << path;
    EXPECT_EQ(reply.header("WWW-Authenticate"), "Bearer") << path << ": RFC 9110 asks a challenge on every 401";
    EXPECT_TRUE(IsErrorEnvelope(reply.body, kAdminUnauthorized)) << path;
  }
  const CurlReply upload = upload_catalog(remote, admin_base_at(*address, server), uploaded_catalog());
  ASSERT_TRUE(upload.ok) << upload.error;
  EXPECT_EQ(upload.status, 401);
  EXPECT_TRUE(IsErrorEnvelope(upload.body, kAdminUnauthorized));
  // Not even a token the server does not have opens it.
  const CurlReply with_bearer = upload_catalog(remote, admin_base_at(*address, server), uploaded_catalog(),
                                               {std::string("Authorization: Bearer ") + kToken});
  EXPECT_EQ(with_bearer.status, 401);
  // The same listener still serves loopback peers.
  CurlSession local;
  EXPECT_EQ(local.get(loopback_admin_base(server) + "/metrics").status, 200);
  EXPECT_NE(served_revision(server), "uploaded") << "a refused upload was published";
}

TEST(AdminAuth, CatalogUploadNeedsTheBearerToken) {
  ServerProcess server(standard_flags({std::string("--admin-token=") + kToken}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  const std::string base = loopback_admin_base(server);

  const CurlReply without = upload_catalog(curl, base, uploaded_catalog());
  EXPECT_EQ(without.status, 401);
  EXPECT_EQ(without.header("WWW-Authenticate"), "Bearer");
  EXPECT_TRUE(IsErrorEnvelope(without.body, kAdminUnauthorized));

  for (const std::string& wrong : {std::string("Authorization: Bearer wrong"),
                                   std::string("Authorization: Bearer ") + kToken + "x",
                                   std::string("Authorization: Bearer ") + std::string(kToken).substr(1),
                                   std::string("Authorization: Basic ") + kToken, std::string("Authorization: ") + kToken}) {
    const CurlReply reply = upload_catalog(curl, base, uploaded_catalog(), {wrong});
    EXPECT_EQ(reply.status, 401) << wrong;
    EXPECT_TRUE(IsErrorEnvelope(reply.body, kAdminUnauthorized)) << wrong;
  }
  EXPECT_NE(served_revision(server), "uploaded") << "a refused upload was published";

  const CurlReply right = upload_catalog(curl, base, uploaded_catalog(), {std::string("Authorization: Bearer ") + kToken});
  EXPECT_EQ(right.status, 200) << right.body;
  EXPECT_EQ(served_revision(server), "uploaded");
}

TEST(AdminAuth, ReadsAreOpenAndWritesNeedTheTokenFromAnyPeerWhenATokenIsSet) {
  REQUIRE_OWN_ADDRESS(address);
  ServerProcess server(standard_flags({"--admin-listen=0.0.0.0:0", std::string("--admin-token=") + kToken}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession remote;
  const std::string base = admin_base_at(*address, server);
  for (const char* path : {"/metrics", "/healthz", "/readyz"}) {
    const CurlReply reply = remote.get(base + path);
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_EQ(reply.status, 200) << path << ": " << reply.body;
  }
  const CurlReply without = upload_catalog(remote, base, uploaded_catalog());
  EXPECT_EQ(without.status, 401);
  EXPECT_EQ(without.header("WWW-Authenticate"), "Bearer");
  const CurlReply right = upload_catalog(remote, base, uploaded_catalog(), {std::string("Authorization: Bearer ") + kToken});
  EXPECT_EQ(right.status, 200) << right.body;
  EXPECT_EQ(served_revision(server), "uploaded");
}

TEST(AdminAuth, RepeatedAuthorizationHeaderIsRefused) {
  ServerProcess server(standard_flags({std::string("--admin-token=") + kToken}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string bearer = std::string("Authorization: Bearer ") + kToken + "\r\n";
  for (const std::string& headers : {bearer + bearer, bearer + "Authorization: Bearer wrong\r\n",
                                     "Authorization: Bearer wrong\r\n" + bearer}) {
    RawConnection connection(server.admin_port());
    ASSERT_TRUE(connection.connected());
    ASSERT_TRUE(connection.send(post_request("/admin/catalog", uploaded_catalog(), headers)));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << connection.last_error();
    EXPECT_EQ(reply->status, 401) << headers;
    EXPECT_TRUE(IsErrorEnvelope(reply->body, kAdminUnauthorized)) << headers;
  }
  EXPECT_NE(served_revision(server), "uploaded");
}

TEST(AdminAuth, PublicListenerServesNoAdminRoute) {
  ServerProcess server(standard_flags({std::string("--admin-token=") + kToken}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  for (const char* path : {"/metrics", "/healthz", "/readyz"}) {
    const CurlReply reply = curl.get(server.public_url(path));
    EXPECT_EQ(reply.status, 404) << path;
    EXPECT_TRUE(IsErrorEnvelope(reply.body, kNoSuchRoute)) << path;
  }
  for (const char* path : {"/admin/catalog", "/admin/explain"}) {
    const CurlReply reply = curl.post_with_headers(server.public_url(path), uploaded_catalog(),
                                                   {"Content-Type: application/json", "Expect:",
                                                    std::string("Authorization: Bearer ") + kToken});
    EXPECT_EQ(reply.status, 404) << path;
    EXPECT_TRUE(IsErrorEnvelope(reply.body, kNoSuchRoute)) << path;
  }
  EXPECT_NE(served_revision(server), "uploaded");
}

}  // namespace
}  // namespace integration::updates
