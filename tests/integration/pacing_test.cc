// Delivery goals on the real binary (docs/pacing.md): an asap goal is met and never
// passed across two cores, /metrics and explain say where it stands, and a goal on an
// open-ended ad refuses the catalog with the path of the goal.
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/paced_catalog.h"
#include "tests/integration/readyz.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

constexpr int kGoal = 15;

int serve_ad_1(ServerProcess& server, const std::string& prefix, int wanted, std::chrono::seconds within) {
  return serve_paced_ad({&server}, prefix, wanted, within);
}

TEST(Pacing, AnAsapGoalIsMetAcrossTwoCoresAndNeverPassed) {
  const TempFile catalog("catalog.json", paced_catalog_json(R"("end": "2099-01-01T00:00:00Z",)", kGoal));
  StateDir state;
  ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--cores=2", "--pacing-interval=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();

  EXPECT_EQ(serve_ad_1(server, "paced-user-", kGoal, std::chrono::seconds(20)), kGoal) << "the goal was not met in 20 s";
  // Met: two more slices, and the ad is served no more, on either core.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  for (int i = 0; i < 100; ++i) {
    const CurlReply reply = decide(server, "after-user-" + std::to_string(i), 1, /*fresh_connection=*/true);
    for (const CreativeTokens& c : tokens_of(reply.body)) EXPECT_NE(c.ad_id, "ad_1") << "served past its goal";
  }
  EXPECT_EQ(wait_for_metric(server, "decisiond_pacing_delivered_impressions", {{"ad", "1"}}, kGoal), kGoal);
  EXPECT_EQ(wait_for_metric(server, "decisiond_pacing_goal_impressions", {{"ad", "1"}}, kGoal), kGoal);
  EXPECT_EQ(wait_for_metric(server, "decisiond_pacing_goals", {{"status", "met"}}, 1), 1);

  CurlSession admin;
  const CurlReply explained = admin.post(
      server.admin_url("/admin/explain"),
      R"({"placements":[{"key":"home_top","count":1}],"user":{"id":"explained-user"}})");
  ASSERT_EQ(explained.status, 200) << explained.body;
  EXPECT_NE(explained.body.find(R"("name":"pacing")"), std::string::npos) << explained.body;
  EXPECT_NE(explained.body.find(R"("status":"met")"), std::string::npos) << explained.body;
  EXPECT_NE(explained.body.find(R"("goal":15)"), std::string::npos) << explained.body;
}

// What an asap goal counted before a SIGKILL counts after the restart: the goal is met once,
// not again. snapshot_interval: "60s" (recovered from the log alone) or "1s" (from a snapshot
// that carries the counts, plus the lines after it).
void expect_delivery_survives_a_kill(const std::string& snapshot_interval) {
  const TempFile catalog("catalog.json", paced_catalog_json(R"("end": "2099-01-01T00:00:00Z",)", kGoal));
  StateDir state;
  const std::vector<std::string> flags = {"--catalog=" + catalog.path(), state.flag(), "--cores=2",
                                          "--pacing-interval=1s", "--events-flush=100ms",
                                          "--snapshot-interval=" + snapshot_interval};
  int before = 0;
  {
    ServerProcess server(standard_flags(flags));
    ASSERT_TRUE(server.serving()) << server.start_error();
    before = serve_ad_1(server, "before-kill-", 10, std::chrono::seconds(20));
    ASSERT_EQ(before, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // flushed, and snapshotted at 1s
    server.send_signal(SIGKILL);
    ASSERT_TRUE(server.wait_for_exit(std::chrono::seconds(10)));
  }
  ServerProcess restarted(standard_flags(flags));
  ASSERT_TRUE(restarted.serving()) << restarted.start_error();
  // The rest of the goal, however slowly a loaded machine serves it; then two more slices,
  // and the ad serves no more. A restart that counted less than was delivered serves past
  // the goal here; one that counted more never reaches it.
  const int after = serve_ad_1(restarted, "after-kill-", kGoal - before, std::chrono::seconds(20));
  EXPECT_EQ(after, kGoal - before) << "counted " << before << " before the kill and only " << after << " after in 20 s";
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const int past = serve_ad_1(restarted, "past-goal-", 1, std::chrono::seconds(3));
  EXPECT_EQ(past, 0) << "served past its goal after the restart";
  EXPECT_EQ(wait_for_metric(restarted, "decisiond_pacing_delivered_impressions", {{"ad", "1"}}, kGoal), kGoal);
}

TEST(Pacing, WhatWasDeliveredBeforeAKillCountsAfterTheRestartFromTheLog) { expect_delivery_survives_a_kill("60s"); }

TEST(Pacing, WhatWasDeliveredBeforeAKillCountsAfterTheRestartFromASnapshot) { expect_delivery_survives_a_kill("1s"); }

// Goals serve from the first request (docs/pacing.md, "Readiness"): a goal large enough that
// its first slice never runs out, and a long interval, so that only the round at start (or
// at the swap) can have allotted it. The catalog's only ad carries the goal: a decision that
// does not serve it serves nothing.
constexpr int kLargeGoal = 100000;
constexpr int kDecisionsAtOnce = 40;

TEST(Pacing, DecisionsRightAfterReadyServeTheGoalsAd) {
  const TempFile catalog("catalog.json", sole_paced_ad_catalog_json("paced-sole-1", kLargeGoal));
  StateDir state;
  ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--cores=2", "--pacing-interval=60s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_TRUE(wait_for_readyz(server, 200));
  EXPECT_EQ(decisions_serving_ad_1(server, "first-user-", kDecisionsAtOnce), kDecisionsAtOnce);
  const std::string explained = explain_home_top(server, "first-explained");
  EXPECT_NE(explained.find(R"("allotted":true)"), std::string::npos) << explained;
}

TEST(Pacing, AGoalNewInACatalogSwapServesFromTheFirstDecisionAfterTheSwap) {
  const TempFile catalog("catalog.json", unpaced_catalog_json("unpaced-1"));
  StateDir state;
  ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--cores=2", "--pacing-interval=60s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_TRUE(wait_for_readyz(server, 200));
  EXPECT_EQ(decisions_serving_ad_1(server, "before-swap-", 5), 0) << "no goal yet";

  CurlSession admin;
  const CurlReply swapped =
      admin.post_with_headers(server.admin_url("/admin/catalog"), sole_paced_ad_catalog_json("paced-sole-2", kLargeGoal),
                              {"Content-Type: application/json", "Expect:"});
  ASSERT_EQ(swapped.status, 200) << swapped.body;
  EXPECT_EQ(decisions_serving_ad_1(server, "after-swap-", kDecisionsAtOnce), kDecisionsAtOnce);
  const std::string explained = explain_home_top(server, "swap-explained");
  EXPECT_NE(explained.find(R"("allotted":true)"), std::string::npos) << explained;
  EXPECT_TRUE(wait_for_readyz(server, 200));
}

TEST(Pacing, AGoalOnAnAdWithoutAnEndRefusesTheCatalogNamingTheGoal) {
  const TempFile catalog("catalog.json", paced_catalog_json("", kGoal));
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + catalog.path()}));
  ASSERT_TRUE(run.exit) << "still running: a refused catalog must stop start-up";
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  EXPECT_NE(run.stderr_text.find("ads[0].delivery"), std::string::npos) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("needs the ad's end"), std::string::npos) << run.stderr_text;
}

}  // namespace
}  // namespace integration
