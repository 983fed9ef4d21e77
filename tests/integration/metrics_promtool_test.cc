// GET /metrics as Prometheus reads it: the live page of a two-core server that has served
// native and video decisions and tracking calls passes `promtool check metrics` (the
// exposition format and Prometheus' naming rules) with nothing to say, and its families
// agree with what was done: decisions by placement sum to the decisions served, tracking
// calls by kind to the calls made, and each core's loop time keeps counting. Placement
// labels are bounded, escaped, and keep their counts across a catalog upload.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/metrics_text.h"
#include "tests/integration/promtool_check.h"
#include "tests/integration/server_process.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

#define EXPECT_PROMTOOL_PASSES(page)                                                                    \
  do {                                                                                                  \
    const PromtoolRun run = promtool_check(page);                                                       \
    ASSERT_NE(run.exit_code, 127) << "promtool not found: run tools/install-deps (Debian: prometheus)"; \
    EXPECT_EQ(run.exit_code, 0) << run.output;                                                          \
    EXPECT_EQ(run.output, "");                                                                          \
  } while (0)

double sample(const std::string& page, std::string_view metric, const Labels& labels = {}) {
  return sum_samples(page, metric, labels).value_or(-1);
}

// The series of a family: lines that start with its name and a label or a space.
size_t series_count(const std::string& page, std::string_view metric) {
  size_t count = 0;
  for (size_t at = page.find(metric); at != std::string::npos; at = page.find(metric, at + 1)) {
    const bool line_start = at == 0 || page[at - 1] == '\n';
    const char next = at + metric.size() < page.size() ? page[at + metric.size()] : '\0';
    if (line_start && (next == '{' || next == ' ')) ++count;
  }
  return count;
}

CurlReply decide_video(const ServerProcess& server) {
  CurlSession session;  // a new connection: either core may take it
  return session.post_with_headers(server.public_url("/v1/decision"),
                                   R"({"placements":[{"key":"video_preroll","count":3}]})",
                                   {"Content-Type: application/json", "X-Decision-Version: 2025-11-01"});
}

CurlReply decide_placement(const ServerProcess& server, std::string_view key) {
  CurlSession session;
  return session.post(server.public_url("/v1/decision"), R"({"placements":[{"key":")" + std::string(key) + R"("}]})");
}

CurlReply upload_catalog(const ServerProcess& server, const std::string& catalog) {
  CurlSession session;
  return session.post_with_headers(server.admin_url("/admin/catalog"), catalog,
                                   {"Content-Type: application/json", "Expect:"});
}

// The demo catalog's ads by format, and its placements.
struct DemoCensus {
  double native = 0, video = 0, placements = 0;
};
DemoCensus demo_census() {
  std::string text;
  if (FILE* file = std::fopen(DEMO_CATALOG_PATH, "rb")) {
    char buffer[65536];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) text.append(buffer, n);
    std::fclose(file);
  }
  DemoCensus census;
  JsonBody demo(text);
  if (!demo.ok()) return census;
  for (simdjson::dom::element ad : array_member(demo.root(), "ads")) {
    (string_member(ad, "format").value_or("native") == "video" ? census.video : census.native) += 1;
  }
  census.placements = static_cast<double>(array_member(demo.root(), "placements").size());
  return census;
}

TEST(MetricsPromtool, TheLivePagePassesPromtoolAndAgreesWithWhatWasServed) {
  const auto test_started = std::chrono::steady_clock::now();
  ServerProcess server(standard_flags({"--events-flush=100ms"}));
  ASSERT_TRUE(server.serving()) << server.start_error();

  int native = 0, video = 0, creatives = 0, impressions = 0, clicks = 0;
  for (int i = 0; i < 12; ++i) {
    // Users spread over both cores: a decision is counted where it is made, the user's core.
    const CurlReply reply = decide(server, "metrics-user-" + std::to_string(i), 2);
    ASSERT_EQ(reply.status, 200) << reply.body;
    ++native;
    for (const CreativeTokens& creative : tokens_of(reply.body)) {
      ++creatives;
      if (call_tracking(server, creative.impression).status == 204) ++impressions;
      if (i % 3 == 0 && !creative.click.empty() && call_tracking(server, creative.click).status / 100 <= 3) ++clicks;
    }
  }
  for (int i = 0; i < 6; ++i) {
    const CurlReply reply = decide_video(server);
    ASSERT_EQ(reply.status, 200) << reply.body;
    ++video;
  }
  ASSERT_GT(impressions, 0);
  ASSERT_GT(clicks, 0);
  // Every call logged (impressions counted where their users' caps are), then the event
  // logs' fdatasyncs: a page on which some have run and the histogram agrees with the
  // counter (a sync that ends while the page is rendered may show in one and not yet the other).
  ASSERT_TRUE(wait_until_logged(server));
  const std::string page = wait_for_page(server, [](const std::string& text) {
                             const double syncs = sample(text, "decisiond_events_syncs_total");
                             return syncs > 0 && sample(text, "decisiond_events_sync_duration_seconds_count") == syncs;
                           }).value_or(scrape_metrics(server));
  ASSERT_FALSE(page.empty());
  EXPECT_PROMTOOL_PASSES(page);

  // The catalog in force: the demo's ads by format, its placements.
  const DemoCensus demo = demo_census();
  ASSERT_GT(demo.video, 0);
  EXPECT_EQ(sample(page, "decisiond_catalog_ads", {{"format", "native"}}), demo.native);
  EXPECT_EQ(sample(page, "decisiond_catalog_ads", {{"format", "video"}}), demo.video);
  EXPECT_EQ(sample(page, "decisiond_catalog_placements"), demo.placements);
  EXPECT_EQ(sample(page, "decisiond_catalog_placements_with_ads", {{"format", "video"}}), 1);  // video_preroll
  EXPECT_GE(sample(page, "decisiond_catalog_load_seconds"), 0);
  EXPECT_GE(sample(page, "decisiond_catalog_age_seconds"), 0);
  EXPECT_EQ(sample(page, "decisiond_catalog_last_refusal_errors"), 0);

  // Decisions by placement: one placement per decision here, so they sum to the total.
  const double decisions = sample(page, "decisiond_decisions_total");
  EXPECT_EQ(decisions, native + video);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total"), decisions);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total", {{"placement", "home_top"}}), native);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total", {{"placement", "video_preroll"}}), video);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total", {{"placement", "_other"}}), 0);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_filled_total", {{"placement", "home_top"}}), native);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_filled_total", {{"placement", "video_preroll"}}), video);
  EXPECT_EQ(sample(page, "decisiond_decision_placement_creatives_total", {{"placement", "home_top"}}), creatives);
  EXPECT_EQ(sample(page, "decisiond_decision_placement_creatives_total", {{"placement", "video_preroll"}}), 3 * video);
  EXPECT_EQ(sample(page, "decisiond_decision_placement_creatives_total"), sample(page, "decisiond_decision_creatives_total"));
  // Every placement of the demo catalog has its label, and "_other" its series.
  EXPECT_EQ(series_count(page, "decisiond_decision_placements_total"), demo.placements + 1);

  // Tracking calls by kind.
  EXPECT_EQ(sample(page, "decisiond_tracking_calls_total", {{"kind", "impression"}}), impressions);
  EXPECT_EQ(sample(page, "decisiond_tracking_calls_total", {{"kind", "click"}}), clicks);
  EXPECT_EQ(sample(page, "decisiond_tracking_calls_total", {{"kind", "video"}}), 0);

  // Per core: cap entries, the event log's bytes, drops and syncs.
  for (const std::string core : {"0", "1"}) {
    EXPECT_GE(sample(page, "decisiond_cap_entries", {{"core", core}}), 0) << core;
    EXPECT_EQ(sample(page, "decisiond_events_dropped_total", {{"core", core}}), 0) << core;
  }
  EXPECT_GT(sample(page, "decisiond_cap_entries"), 0);  // the demo's capped ads were served to users
  EXPECT_GT(sample(page, "decisiond_events_written_bytes_total"), 0);
  const double syncs = sample(page, "decisiond_events_syncs_total");
  EXPECT_GT(syncs, 0);
  EXPECT_EQ(sample(page, "decisiond_events_sync_duration_seconds_count"), syncs);
  EXPECT_EQ(sample(page, "decisiond_events_sync_duration_seconds_bucket", {{"le", "+Inf"}}), syncs);
  EXPECT_GT(sample(page, "decisiond_events_sync_duration_seconds_sum"), 0);

  // Loop time: both cores count busy and waiting time, which keep growing (a stretch is
  // counted when it ends: the first later page on which both have grown on every core),
  // and together never exceed the time the server has run.
  const auto both_grew = [&page](const std::string& text) {
    for (const std::string core : {"0", "1"}) {
      for (const char* family : {"decisiond_reactor_busy_seconds_total", "decisiond_reactor_wait_seconds_total"}) {
        if (!(sample(text, family, {{"core", core}}) > sample(page, family, {{"core", core}}))) return false;
      }
    }
    return true;
  };
  const std::string later = wait_for_page(server, both_grew).value_or(scrape_metrics(server));
  const double since_start_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - test_started).count();
  for (const std::string core : {"0", "1"}) {
    const double busy = sample(page, "decisiond_reactor_busy_seconds_total", {{"core", core}});
    const double wait = sample(page, "decisiond_reactor_wait_seconds_total", {{"core", core}});
    const double busy_later = sample(later, "decisiond_reactor_busy_seconds_total", {{"core", core}});
    const double wait_later = sample(later, "decisiond_reactor_wait_seconds_total", {{"core", core}});
    EXPECT_GT(busy, 0) << core;
    EXPECT_GT(wait, 0) << core;
    EXPECT_GT(busy_later, busy) << core;
    EXPECT_GT(wait_later, wait) << core;
    EXPECT_LE(busy_later + wait_later, since_start_s) << core;
  }
  EXPECT_PROMTOOL_PASSES(later);
}

TEST(MetricsPromtool, PlacementLabelsAreEscapedAndKeepTheirCountsAcrossACatalogUpload) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(decide_placement(server, "home_top").status, 200);

  // JSON escapes in the catalog: a quote, a backslash, a line feed; then a tab and UTF-8,
  // which the label carries as they are.
  const std::string odd_key = R"(quo\"te\\back\nslash)";
  const std::string catalog = test_catalog_json(
      {{1, "home_top"}, {2, odd_key}, {3, R"(tab\there)"}, {4, "caf\u00e9"}},
      {{.id = 1, .placement_ids = {1, 2, 3, 4}}});
  const CurlReply uploaded = upload_catalog(server, catalog);
  ASSERT_EQ(uploaded.status, 200) << uploaded.body;
  ASSERT_EQ(decide_placement(server, "home_top").status, 200);
  ASSERT_EQ(decide_placement(server, "quo\\\"te\\\\back\\nslash").status, 200);

  const std::string page = scrape_metrics(server);
  EXPECT_PROMTOOL_PASSES(page);
  // home_top kept its series through the swap: three decisions before it, one after.
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total", {{"placement", "home_top"}}), 4);
  EXPECT_NE(page.find("decisiond_decision_placements_total{placement=\"quo\\\"te\\\\back\\nslash\"} 1\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("decisiond_decision_placements_total{placement=\"tab\there\"} 0\n"), std::string::npos);
  EXPECT_NE(page.find("decisiond_decision_placements_total{placement=\"caf\u00e9\"} 0\n"), std::string::npos);
  // The demo's other placements keep their (idle) series.
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total", {{"placement", "video_preroll"}}), 0);
}

TEST(MetricsPromtool, PlacementsPastTheLabelBoundAreSummedAsOther) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const double demo_placements = demo_census().placements;
  // 70 new keys: the first 64 minus the demo's share get labels, the rest are "_other".
  std::vector<TestPlacement> placements;
  std::vector<uint64_t> ids;
  for (uint64_t i = 0; i < 70; ++i) {
    placements.push_back({i + 1, "p" + std::to_string(i)});
    ids.push_back(i + 1);
  }
  const CurlReply uploaded = upload_catalog(server, test_catalog_json(placements, {{.id = 1, .placement_ids = ids}}));
  ASSERT_EQ(uploaded.status, 200) << uploaded.body;
  const int last_labelled = 64 - static_cast<int>(demo_placements) - 1;
  ASSERT_EQ(decide_placement(server, "p" + std::to_string(last_labelled)).status, 200);
  ASSERT_EQ(decide_placement(server, "p" + std::to_string(last_labelled + 1)).status, 200);
  ASSERT_EQ(decide_placement(server, "p69").status, 200);

  const std::string page = scrape_metrics(server);
  EXPECT_PROMTOOL_PASSES(page);
  EXPECT_EQ(series_count(page, "decisiond_decision_placements_total"), 65u);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total", {{"placement", "p" + std::to_string(last_labelled)}}), 1);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total", {{"placement", "_other"}}), 2);
  EXPECT_EQ(sample(page, "decisiond_decision_placements_total"), 3);
  EXPECT_EQ(sample(page, "decisiond_catalog_placements"), 70);
}

}  // namespace
}  // namespace integration
