// SIGHUP re-reads keys.json (docs/keys.md, "Reloading keys"; tracking/core_keys/key_reload.h):
// a rotated key seals new tokens and tags once every core has it, and what older keys
// sealed keeps working; a file others can read, that does not parse or is gone leaves the
// keys in force, says why on stderr and is counted; a retired key's tokens and tags are
// refused; and the two phases of a rotation across nodes take effect without a restart.
#include <signal.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/integration/decision_client.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/key_rotation_fixture.h"
#include "tests/integration/keys_tool.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/updates/admin_calls.h"
#include "tracking/tokens/secret_file.h"

namespace integration::updates {
namespace {

using namespace std::chrono_literals;

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// SIGHUP to server, then waits until it has counted the reload as `result`: an applied one
// is counted once every core has adopted the new keys.
void reload(ServerProcess& server, const std::string& result) {
  const Labels labels = {{"result", result}};
  const double before = metric_value(server, "decisiond_keys_reloads_total", labels);
  server.send_signal(SIGHUP);
  EXPECT_EQ(wait_for_metric(server, "decisiond_keys_reloads_total", labels, before + 1, 10s), before + 1)
      << server.stderr_text();
}

// Every core (the harness starts two) signs with signing_id and holds `keys` keys.
void ExpectEveryCoreHolds(const ServerProcess& server, int signing_id, int keys) {
  const std::string page = scrape_metrics(server);
  for (const char* core : {"0", "1"}) {
    EXPECT_EQ(sum_samples(page, "decisiond_keys_signing_key_id", {{"core", core}}), signing_id) << "core " << core;
    EXPECT_EQ(sum_samples(page, "decisiond_keys_held", {{"core", core}}), keys) << "core " << core;
  }
}

// The impression token of ad 1 in a video decision made by server.
std::string impression_from(const ServerProcess& server) {
  DecisionClient decisions(server);
  const CurlReply reply = decide_video(decisions, kVideoVersion);
  EXPECT_EQ(reply.status, 200) << reply.body;
  for (const CreativeTokens& tokens : tokens_of(reply.body)) {
    if (tokens.ad_id == "ad_1") return tokens.impression;
  }
  ADD_FAILURE() << "no impression of ad_1: " << reply.body;
  return "";
}

class KeysReload : public KeyRotationFixture {
 protected:
  std::string key_file() const { return state_.path() + "/keys.json"; }
  void reload(const std::string& result) { updates::reload(*server_, result); }
};

TEST_F(KeysReload, ARotatedKeySealsNewTokensAndTagsWhileOlderOnesStillCount) {
  keys("create");
  start();
  const Issued before = issue();
  ExpectSealedWith(before, 1);
  reload("unchanged");
  EXPECT_TRUE(wait_for_stderr(*server_, "tracking keys " + key_file() + " unchanged (key 1 signs; key 1 opens)"))
      << server_->stderr_text();

  keys("rotate");
  reload("applied");
  EXPECT_TRUE(wait_for_stderr(*server_, "tracking keys " + key_file() +
                                            " applied on every core (the new keys opened first, then the new signing "
                                            "key): key 2 signs; keys 2, 1 open"))
      << server_->stderr_text();
  ExpectEveryCoreHolds(*server_, 2, 2);
  // Decisions on new connections: either core answers, and both seal with key 2.
  Issued after;
  for (int i = 0; i < 4; ++i) {
    after = issue();
    ExpectSealedWith(after, 2);
  }
  ExpectAccepted(before, 2, "issued with key 1 before the reload");
  ExpectAccepted(after, 2, "issued with key 2");

  // Both impressions counted, once each, in the event log.
  const std::vector<EventLine> lines = wait_for_event_lines(
      state_.path(), [](const std::vector<EventLine>& read) { return count_impressions(read, false) >= 2; });
  EXPECT_EQ(count_impressions(lines, false), 2u);
  EXPECT_EQ(count_impressions(lines, true), 0u);
  EXPECT_EQ(metric_value(*server_, "decisiond_keys_reloads_total", {{"result", "refused"}}), 0);
}

TEST_F(KeysReload, AFileOthersCanReadThatDoesNotParseOrIsGoneIsRefusedAndTheKeysInForceStay) {
  keys("create");
  keys("rotate");
  start();
  const Issued before = issue();
  ExpectSealedWith(before, 2);
  keys("rotate");  // key 3 on disk: the refusals below must not bring it in
  const std::string good = read_text(key_file());
  const std::string in_force = "tracking keys refused, the keys in force stay (key 2 signs; keys 2, 1 open): ";

  ASSERT_EQ(::chmod(key_file().c_str(), 0644), 0);
  reload("refused");
  EXPECT_TRUE(wait_for_stderr(*server_, in_force + key_file() + ": group or others have access (mode 0644)"))
      << server_->stderr_text();
  ExpectSealedWith(issue(), 2);
  ExpectAccepted(before, 2, "after a refused world-readable file");

  ASSERT_EQ(::chmod(key_file().c_str(), 0600), 0);
  std::string broken = good;
  const size_t key_at = broken.find("\"aesKey\": \"") + 11;
  broken.erase(key_at + 40, 1);  // 43 characters: not 32 bytes of base64
  ASSERT_TRUE(tracking::replace_secret_file(key_file(), broken).ok());
  reload("refused");
  EXPECT_TRUE(wait_for_stderr(*server_, in_force + key_file() + ": keys[0].aesKey: must be 32 bytes base64"))
      << server_->stderr_text();
  EXPECT_EQ(server_->stderr_text().find(broken.substr(key_at, 12)), std::string::npos) << "key bytes on stderr";
  ExpectSealedWith(issue(), 2);
  ExpectAccepted(before, 2, "after a refused unparsable file");

  std::filesystem::rename(key_file(), key_file() + ".away");
  reload("refused");
  EXPECT_TRUE(wait_for_stderr(*server_, in_force + key_file())) << server_->stderr_text();
  ExpectSealedWith(issue(), 2);
  std::filesystem::rename(key_file() + ".away", key_file());

  ASSERT_TRUE(tracking::replace_secret_file(key_file(), good).ok());
  reload("applied");
  ExpectEveryCoreHolds(*server_, 3, 3);
  ExpectSealedWith(issue(), 3);
  ExpectAccepted(before, 3, "issued with key 2, key 3 signing");
  EXPECT_EQ(metric_value(*server_, "decisiond_keys_reloads_total", {{"result", "refused"}}), 3);
  EXPECT_EQ(metric_value(*server_, "decisiond_keys_reloads_total", {{"result", "applied"}}), 1);
}

// Another node's file, made by its own create: the same id with other bytes. Taking it would
// fail every token key 1 sealed here.
TEST_F(KeysReload, AFileWithOtherBytesUnderAnIdInForceIsRefused) {
  keys("create");
  start();
  const Issued before = issue();
  StateDir elsewhere;
  ASSERT_EQ(run_keys_tool(elsewhere.path(), "create").status, 0);
  ASSERT_TRUE(tracking::replace_secret_file(key_file(), read_text(elsewhere.path() + "/keys.json")).ok());
  reload("refused");
  EXPECT_TRUE(wait_for_stderr(*server_, "tracking keys refused, the keys in force stay (key 1 signs; key 1 opens): " +
                                            key_file() + ": key 1 holds other bytes than the key of that id in force"))
      << server_->stderr_text();
  ExpectAccepted(before, 1, "key 1 in force kept");
}

TEST_F(KeysReload, ARetiredKeysTokensAndTagsAreRefusedOnceReloaded) {
  keys("create");
  start();
  const Issued first = issue();
  keys("rotate");
  reload("applied");
  const Issued second = issue();
  ExpectSealedWith(second, 2);
  ExpectAccepted(first, 2, "key 1 still held");

  keys("retire --id=1");
  reload("applied");
  ExpectEveryCoreHolds(*server_, 2, 1);
  ExpectRefusedAsRetired(first);
  ExpectAccepted(second, 2, "key 2 after key 1 was retired");
}

// docs/keys.md, "Rotating across nodes: two phases", with SIGHUP for the restarts: node A
// (this test's state directory) and node B, which gets copies of A's file later than A.
TEST_F(KeysReload, TwoPhasesAcrossNodesTakeEffectBySighupAndNeverIssueWhatTheOtherCannotOpen) {
  StateDir node_b;
  const auto copy_to_b = [&] {
    ASSERT_TRUE(tracking::replace_secret_file(node_b.path() + "/keys.json", read_text(key_file())).ok());
  };
  keys("create");
  copy_to_b();
  start();
  ServerProcess b(standard_flags({"--catalog=" + catalog_.path(), node_b.flag(), std::string("--base-url=") + kVideoBaseUrl}));
  ASSERT_TRUE(b.serving()) << b.start_error();

  // A phase: the change made on A, A reloaded first; what A then issues B opens, though B
  // has not been given the file yet.
  const auto phase_on_a = [&](const std::string& change, int signing_id, const std::string& why) {
    keys(change);
    reload("applied");
    ExpectEveryCoreHolds(*server_, signing_id, 2);
    const std::string issued = impression_from(*server_);
    EXPECT_EQ(key_id_of_token(issued), signing_id);
    EXPECT_EQ(call_tracking(b, issued).status, 204) << why;
  };

  // Phase 1: key 2 added, verifying only; A still signs with key 1.
  phase_on_a("rotate --no-sign", 1, "B, not yet reloaded, opens what A issues");
  copy_to_b();
  updates::reload(b, "applied");
  ExpectEveryCoreHolds(b, 1, 2);

  // Phase 2: key 2 signs on A; B, reloaded later, already opens it.
  phase_on_a("promote --id=2", 2, "B, still signing with key 1, opens key 2");
  EXPECT_EQ(key_id_of_token(impression_from(b)), 1);
  EXPECT_EQ(call_tracking(*server_, impression_from(b)).status, 204) << "A opens what B still seals with key 1";
  copy_to_b();
  updates::reload(b, "applied");
  EXPECT_EQ(key_id_of_token(impression_from(b)), 2);
  EXPECT_EQ(run_keys_binary("compare " + state_.path() + " " + node_b.path()).status, 0);
}

}  // namespace
}  // namespace integration::updates
