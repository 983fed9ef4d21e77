// Keys rotate without a restart, under load (docs/keys.md, "Reloading keys"): client threads
// decide and call every impression URL of each decision, over and over, each impression on
// a new connection so that it reaches either core whichever core sealed it. Meanwhile the
// test rotates keys.json and sends SIGHUP, in one step (rotate) and in two (rotate --no-sign,
// then promote), and retires the oldest key once no client holds a token it sealed. No call
// may fail: every decision is 200, every impression 204, and each impression is logged once.
#include <signal.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_client.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/keys_tool.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration::updates {
namespace {

using namespace std::chrono_literals;

// Three clients keep both server cores busy on a 2-CPU machine.
constexpr int kReloadClients = 3;
// Keys 2 to 5 each take over from the one before, which is then retired.
constexpr int kLastKeyId = 5;
constexpr size_t kReloadFailuresKept = 10;
// Bounds of the waits, reached only when something is wrong.
constexpr auto kReloadTimeout = 10s;
constexpr auto kProgressTimeout = 30s;

constexpr char kRequest[] = R"({"placements":[{"key":"slot","count":3}]})";

// What one client thread saw; read by the test thread once the client has stopped, except
// rounds, which it watches as the clients go.
struct ClientTally {
  std::atomic<uint64_t> rounds{0};  // decisions whose impressions have all been called
  uint64_t decisions = 0;
  uint64_t impressions = 0;
  uint64_t failed = 0;
  std::vector<std::string> failures;  // the first kReloadFailuresKept
  std::set<int> key_ids;              // that sealed the impressions called

  void fail(std::string what) {
    ++failed;
    if (failures.size() < kReloadFailuresKept) failures.push_back(what.substr(0, 600));
  }
};

void run_reload_client(const ServerProcess& server, DecisionClient& decisions, CurlSession& tracking,
                const std::atomic<bool>& stop, ClientTally& tally) {
  while (!stop.load()) {
    const CurlReply reply = decisions.decide(kRequest);
    ++tally.decisions;
    if (!reply.ok || reply.status != 200) {
      tally.fail("decision: " + (reply.ok ? std::to_string(reply.status) + " " + reply.body : reply.error));
      continue;
    }
    for (const CreativeTokens& tokens : tokens_of(reply.body)) {
      tally.key_ids.insert(key_id_of_token(tokens.impression));
      // Connection: close: the next call connects anew and may reach the other core.
      const CurlReply impression =
          tracking.get_with_headers(server.public_url("/v1/tracking?t=" + tokens.impression), {"Connection: close"});
      ++tally.impressions;
      if (!impression.ok || impression.status != 204) {
        tally.fail("impression sealed with key " + std::to_string(key_id_of_token(tokens.impression)) + ": " +
                   (impression.ok ? std::to_string(impression.status) + " " + impression.body : impression.error));
      }
    }
    tally.rounds.store(tally.rounds.load() + 1);
  }
}

class KeysReloadUnderLoad : public ::testing::Test {
 protected:
  void keys(const std::string& arguments) {
    const ToolRun run = run_keys_tool(state_.path(), arguments);
    EXPECT_EQ(run.status, 0) << "decisiond-keys " << arguments << ": " << run.out;
  }

  // SIGHUP, then waits until the reload is applied on every core.
  void reload() {
    ++applied_;
    server_->send_signal(SIGHUP);
    EXPECT_EQ(wait_for_metric(*server_, "decisiond_keys_reloads_total", {{"result", "applied"}}, applied_, kReloadTimeout),
              applied_)
        << server_->stderr_text();
  }

  // Waits until every client has finished two more rounds: the one it was in (which may
  // hold tokens of the keys in force before) and one begun after now.
  void wait_for_two_rounds() {
    std::vector<uint64_t> seen;
    for (const std::unique_ptr<ClientTally>& tally : tallies_) seen.push_back(tally->rounds.load());
    const auto deadline = std::chrono::steady_clock::now() + kProgressTimeout;
    for (size_t i = 0; i < tallies_.size(); ++i) {
      while (tallies_[i]->rounds.load() < seen[i] + 2 && std::chrono::steady_clock::now() < deadline) {
        // Polling interval only; the deadline is the bound.
        std::this_thread::sleep_for(5ms);
      }
      ASSERT_GE(tallies_[i]->rounds.load(), seen[i] + 2) << "client " << i << " made no progress";
    }
  }

  StateDir state_;
  TempFile catalog_{"catalog.json", test_catalog_json({{1, "slot"}}, {{.id = 1, .placement_ids = {1}},
                                                                       {.id = 2, .placement_ids = {1}},
                                                                       {.id = 3, .placement_ids = {1}}})};
  std::unique_ptr<ServerProcess> server_;
  std::vector<std::unique_ptr<ClientTally>> tallies_;
  double applied_ = 0;
};

TEST_F(KeysReloadUnderLoad, RotationsAndRetirementsFailNoCallAndEveryImpressionIsLoggedOnce) {
  keys("create");
  // Shedding is not what this test is about: a loaded 2-CPU machine passes --shed-lag now
  // and then. Events are synced often, so the log is read back sooner.
  server_ = std::make_unique<ServerProcess>(standard_flags(
      {"--catalog=" + catalog_.path(), state_.flag(), "--shed-lag=0", "--events-flush=100ms"}));
  ASSERT_TRUE(server_->serving()) << server_->start_error();

  // Handles made here, before any thread: curl's global initialisation is not thread-safe.
  std::vector<std::unique_ptr<DecisionClient>> decision_clients;
  std::vector<std::unique_ptr<CurlSession>> tracking_clients;
  for (int i = 0; i < kReloadClients; ++i) {
    decision_clients.push_back(std::make_unique<DecisionClient>(*server_));
    tracking_clients.push_back(std::make_unique<CurlSession>());
    tallies_.push_back(std::make_unique<ClientTally>());
  }
  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int i = 0; i < kReloadClients; ++i) {
    clients.emplace_back(run_reload_client, std::cref(*server_), std::ref(*decision_clients[i]),
                         std::ref(*tracking_clients[i]), std::cref(stop), std::ref(*tallies_[i]));
  }
  wait_for_two_rounds();
  for (int id = 2; id <= kLastKeyId; ++id) {
    if (id % 2 == 0) {
      keys("rotate");  // one step: the server opens key id everywhere, then signs with it
      reload();
    } else {
      keys("rotate --no-sign");  // two steps, as across nodes
      reload();
      wait_for_two_rounds();
      keys("promote --id=" + std::to_string(id));
      reload();
    }
    // Once every client has finished a round begun under key id, no token of key id - 1
    // is left to call.
    wait_for_two_rounds();
    keys("retire --id=" + std::to_string(id - 1));
    reload();
    wait_for_two_rounds();
  }
  stop.store(true);
  for (std::thread& t : clients) t.join();

  uint64_t decisions = 0, impressions = 0, failed = 0;
  std::set<int> key_ids;
  std::string failures;
  for (const std::unique_ptr<ClientTally>& tally : tallies_) {
    decisions += tally->decisions;
    impressions += tally->impressions;
    failed += tally->failed;
    key_ids.insert(tally->key_ids.begin(), tally->key_ids.end());
    for (const std::string& failure : tally->failures) failures += "\n  " + failure;
  }
  std::printf("keys reloaded under load: %.0f reloads, %llu decisions, %llu impressions\n", applied_,
              static_cast<unsigned long long>(decisions), static_cast<unsigned long long>(impressions));
  EXPECT_EQ(failed, 0u) << failures;
  EXPECT_EQ(key_ids, (std::set<int>{1, 2, 3, 4, 5})) << "every key sealed impressions that were called";
  EXPECT_GT(impressions, 0u);

  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [&](const std::vector<EventLine>& read) {
    return count_impressions(read, false) >= impressions;
  });
  EXPECT_EQ(count_impressions(lines, false), impressions);
  EXPECT_EQ(count_impressions(lines, true), 0u);
  EXPECT_EQ(metric_value(*server_, "decisiond_keys_reloads_total", {{"result", "refused"}}), 0);
  const std::string page = scrape_metrics(*server_);
  for (const char* core : {"0", "1"}) {
    EXPECT_EQ(sum_samples(page, "decisiond_keys_signing_key_id", {{"core", core}}), kLastKeyId);
    EXPECT_EQ(sum_samples(page, "decisiond_keys_held", {{"core", core}}), 1);
  }
}

}  // namespace
}  // namespace integration::updates
