// The admin plane (docs/operations.md, "Health and metrics"): health, readiness, and
// Prometheus metrics that count the requests and limit hits this test itself caused.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/curl_session.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

TEST(Admin, HealthzAnswersOk) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  const CurlReply reply = curl.get(server.admin_url("/healthz"));
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "ok\n");
  EXPECT_EQ(reply.header("Content-Type").rfind("text/plain", 0), 0u) << reply.header("Content-Type");
}

TEST(Admin, ReadyzAnswersReady) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  const CurlReply reply = curl.get(server.admin_url("/readyz"));
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "ready\n");
}

TEST(Admin, MetricsIsPrometheusTextWithEveryFamily) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  const CurlReply reply = curl.get(server.admin_url("/metrics"));
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("Content-Type").rfind("text/plain; version=0.0.4", 0), 0u) << reply.header("Content-Type");
  for (const char* family : {"decisiond_http_requests_total", "decisiond_http_request_duration_seconds",
                             "decisiond_http_connections_open", "decisiond_http_limit_hits_total"}) {
    EXPECT_NE(reply.body.find(std::string("# TYPE ") + family + " "), std::string::npos) << family;
  }
  EXPECT_NE(reply.body.find("# TYPE decisiond_http_request_duration_seconds histogram"), std::string::npos);
  for (const char* limit : {"connections", "header_bytes", "body_bytes", "malformed", "request_timeout", "idle_timeout"}) {
    EXPECT_TRUE(sum_samples(reply.body, "decisiond_http_limit_hits_total", {{"limit", limit}}))
        << "no limit=\"" << limit << "\" sample";
  }
}

TEST(Admin, MetricsCountRequestsByRouteAndStatus) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(curl.post(server.public_url("/v1/decision"), "{}").ok);  // 422
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(curl.get(server.public_url("/nope")).ok);
  ASSERT_TRUE(curl.get(server.public_url("/v1/decision")).ok);  // 405

  const std::string page = scrape_metrics(server);
  ASSERT_FALSE(page.empty());
  const auto requests = [&](const char* route, const char* status) {
    return sum_samples(page, "decisiond_http_requests_total",
                       {{"listener", "public"}, {"route", route}, {"status", status}});
  };
  EXPECT_EQ(requests("decision", "422"), 3.0) << page;
  EXPECT_EQ(requests("unmatched", "404"), 2.0) << page;
  EXPECT_EQ(requests("decision", "405"), 1.0) << page;
  EXPECT_EQ(requests("tracking", "501"), std::nullopt) << "a route with no requests has no sample";
  EXPECT_EQ(sum_samples(page, "decisiond_http_request_duration_seconds_count",
                        {{"listener", "public"}, {"route", "decision"}}),
            4.0);
  EXPECT_EQ(sum_samples(page, "decisiond_http_request_duration_seconds_bucket",
                        {{"listener", "public"}, {"route", "decision"}, {"le", "+Inf"}}),
            4.0);
}

TEST(Admin, MetricsCountLimitHits) {
  ServerProcess server(standard_flags({"--max-body-bytes=16"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string requests[] = {
      get_request("/v1/tracking", "X-Big: " + std::string(17 * 1024, 'a') + "\r\n"),
      post_request("/v1/decision", std::string(17, 'x')),
      "BAD REQUEST\r\n\r\n",
  };
  for (const std::string& request : requests) {
    SCOPED_TRACE(request.substr(0, 40));
    RawConnection connection(server.public_port());
    ASSERT_TRUE(connection.send(request));
    ASSERT_TRUE(connection.read_reply()) << connection.last_error();
    // Each error ends its connection; let the server finish closing before the next.
    EXPECT_TRUE(connection.wait_for_close());
  }
  const std::string page = scrape_metrics(server);
  const auto hits = [&](const char* limit) {
    return sum_samples(page, "decisiond_http_limit_hits_total", {{"listener", "public"}, {"limit", limit}});
  };
  EXPECT_EQ(hits("header_bytes"), 1.0) << page;
  EXPECT_EQ(hits("body_bytes"), 1.0) << page;
  EXPECT_EQ(hits("malformed"), 1.0) << page;
  EXPECT_EQ(hits("connections"), 0.0) << page;
}

}  // namespace
}  // namespace integration
