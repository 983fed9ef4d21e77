// Tokens issued under one catalog keep working after a swap to another (docs/tracking.md,
// "Clicks after the ad has gone": a token carries what its call needs): a click token of an
// ad that has left the catalog still redirects to its URL, and its impression token still
// counts, exactly once.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration::updates {
namespace {

class TokensAcrossSwap : public ::testing::Test {
 protected:
  // Starts on a catalog with ad 1 in home_top, takes its tokens, then swaps to one where
  // home_top holds only ad 2.
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(
        standard_flags({"--catalog=" + before_.path(), state_.flag(), "--events-flush=50ms"}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
    const CurlReply reply = decide(*server_, "", 1);
    ASSERT_EQ(reply.status, 200) << reply.body;
    const std::vector<CreativeTokens> tokens = tokens_of(reply.body);
    ASSERT_EQ(tokens.size(), 1u) << reply.body;
    ASSERT_EQ(tokens[0].ad_id, "ad_1");
    tokens_ = tokens[0];

    const CurlReply upload = upload_catalog(
        *server_, with_revision(test_catalog_json({{7, "home_top"}}, {{.id = 2, .placement_ids = {7}}}), "after"));
    ASSERT_EQ(upload.status, 200) << upload.body;
    const CurlReply after = decide(*server_, "", 1);
    const std::vector<CreativeTokens> now = tokens_of(after.body);
    ASSERT_EQ(now.size(), 1u) << after.body;
    ASSERT_EQ(now[0].ad_id, "ad_2") << "ad 1 has left the catalog";
  }

  TempFile before_{"catalog.json",
                   with_revision(test_catalog_json({{7, "home_top"}}, {{.id = 1, .placement_ids = {7}}}), "before")};
  StateDir state_;
  std::unique_ptr<ServerProcess> server_;
  // The event log's lines of that kind once `count` of them are on disk (--events-flush
  // is 50 ms), or what there is after 5 s.
  std::vector<LogLine> logged(const std::string& kind, size_t count) {
    std::vector<LogLine> lines;
    for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);;
         std::this_thread::sleep_for(std::chrono::milliseconds(50))) {
      lines.clear();
      for (const LogLine& line : read_event_log(state_.path())) {
        if (line.kind == kind) lines.push_back(line);
      }
      if (lines.size() >= count || std::chrono::steady_clock::now() >= deadline) return lines;
    }
  }

  CreativeTokens tokens_;
};

TEST_F(TokensAcrossSwap, ClickOfAnAdThatLeftTheCatalogRedirectsToItsUrl) {
  const CurlReply click = call_tracking(*server_, tokens_.click);
  EXPECT_EQ(click.status, 302) << click.body;
  EXPECT_EQ(click.header("Location"), "https://advertiser.example.test/1");
  const std::vector<LogLine> clicks = logged("click", 1);
  ASSERT_EQ(clicks.size(), 1u);
  EXPECT_EQ(clicks[0].ad, 1u);
}

TEST_F(TokensAcrossSwap, ImpressionOfAnAdThatLeftTheCatalogCountsOnce) {
  EXPECT_EQ(call_tracking(*server_, tokens_.impression).status, 204);
  EXPECT_EQ(call_tracking(*server_, tokens_.impression).status, 204) << "a repeat is answered, not counted";
  EXPECT_EQ(wait_for_metric(*server_, "decisiond_impressions_counted_total", {}, 1), 1);
  EXPECT_EQ(wait_for_metric(*server_, "decisiond_impressions_duplicate_total", {}, 1), 1);
  const std::vector<LogLine> impressions = logged("impression", 2);
  ASSERT_EQ(impressions.size(), 2u);
  EXPECT_EQ(impressions[0].ad, 1u);
  EXPECT_FALSE(impressions[0].duplicate);
  EXPECT_EQ(impressions[1].ad, 1u);
  EXPECT_TRUE(impressions[1].duplicate);
}

}  // namespace
}  // namespace integration::updates
