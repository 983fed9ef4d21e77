// Key rotation end to end (docs/keys.md): tools/decisiond-keys
// changes <state-dir>/keys.json between runs of the real server on that directory. After a
// rotation, tokens and VAST tags sealed with the old key still work and new ones carry the
// new key id; after the old key is retired they are refused (400 10050, 403 10052) while
// the new ones still work. The server refuses a keys.json others can read, and no key's
// bytes appear in its stderr, /metrics or any reply.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"
#include "tests/integration/key_rotation_fixture.h"
#include "tests/integration/keys_tool.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/video_catalog.h"
#include "tracking/tokens/base64url.h"
#include "tracking/tokens/key_file.h"
#include "tracking/tokens/secret_file.h"

namespace integration {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Runs of the real server on one state directory, keys.json changed between them.
class KeyRotation : public KeyRotationFixture {};

TEST_F(KeyRotation, OldTokensAndTagsWorkUntilTheirKeyIsRetiredAndNewOnesCarryTheNewKey) {
  keys("create");
  start();
  const Issued old_issued = issue();
  ExpectSealedWith(old_issued, 1);
  ExpectAccepted(old_issued, 1, "key 1 alone");
  stop();

  // A new signing key; key 1 kept for what it sealed. The server reads it at its next start.
  keys("rotate");
  start();
  ExpectAccepted(old_issued, 2, "sealed with key 1, key 2 signing");
  const Issued new_issued = issue();
  ExpectSealedWith(new_issued, 2);
  ExpectAccepted(new_issued, 2, "sealed with key 2");
  stop();

  keys("retire --id=1");
  start();
  ExpectRefusedAsRetired(old_issued);
  ExpectAccepted(new_issued, 2, "sealed with key 2 after key 1 was retired");
  ExpectSealedWith(issue(), 2);
  stop();

  // Key 1's id is never given again.
  keys("rotate");
  const ToolRun listed = run_keys_tool(state_.path(), "list --json");
  EXPECT_NE(listed.out.find(R"({"lastId":3,"keys":[{"id":3,"role":"signing")"), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find(R"("id":1,)"), std::string::npos) << listed.out;
}

// Several nodes (docs/keys.md, "Several nodes"): this test's state directory is node A, where
// the operator changes keys.json; node B gets copies of it, later than A; node C never gets
// the new key. A token or tag issued by one node is opened by whichever node the balancer
// picks, so during both phases every node must open what any node issues.
TEST_F(KeyRotation, TwoPhasesAcrossNodesNeverIssueWhatAnotherNodeCannotOpen) {
  StateDir node_b, node_c;
  const auto copy_to = [&](const StateDir& node) {
    const std::string text = read_text(state_.path() + "/keys.json");
    ASSERT_TRUE(tracking::replace_secret_file(node.path() + "/keys.json", text).ok());
  };
  keys("create");
  copy_to(node_b);
  copy_to(node_c);

  // Phase 1: key 2 added on A as a verifying key. A still signs with key 1, so B, not yet
  // given the new file, opens what A issues.
  keys("rotate --no-sign");
  start();
  const Issued phase_one = issue();
  ExpectSealedWith(phase_one, 1);
  stop();
  start(&node_b);
  ExpectAccepted(phase_one, 1, "issued by A in phase 1, opened by B without key 2");
  stop();
  EXPECT_EQ(run_keys_binary("compare " + state_.path() + " " + node_b.path()).status, 1);
  copy_to(node_b);
  const ToolRun agree = run_keys_binary("compare " + state_.path() + " " + node_b.path());
  EXPECT_EQ(agree.status, 0) << agree.out;

  // Phase 2: key 2 signs on A; B, which holds key 2 but not yet the promotion, opens it.
  keys("promote --id=2");
  start();
  const Issued phase_two = issue();
  ExpectSealedWith(phase_two, 2);
  stop();
  start(&node_b);
  ExpectAccepted(phase_two, 1, "issued by A with key 2, opened by B still signing with key 1");
  ExpectSealedWith(issue(), 1);
  stop();
  // What a one-step rotation would risk: a node without key 2 refuses key 2's tokens.
  start(&node_c);
  const HttpReply refused = track(phase_two.impression);
  EXPECT_EQ(refused.status, 400) << refused.body;
  EXPECT_TRUE(IsErrorEnvelope(refused.body, 10050)) << refused.body;
  stop();

  copy_to(node_b);
  start(&node_b);
  ExpectSealedWith(issue(), 2);
  ExpectAccepted(phase_one, 2, "issued by A with key 1, opened by B after both phases");
  stop();
  const ToolRun fingerprint_a = run_keys_tool(state_.path(), "fingerprint --json");
  const ToolRun fingerprint_b = run_keys_tool(node_b.path(), "fingerprint --json");
  EXPECT_EQ(fingerprint_a.status, 0) << fingerprint_a.out;
  EXPECT_EQ(fingerprint_a.out, fingerprint_b.out);
  tool_output_ += fingerprint_a.out;
}

TEST_F(KeyRotation, AKeyFileOthersCanReadStopsTheServerNamingTheFileModeAndFix) {
  keys("create");
  const std::string path = state_.path() + "/keys.json";
  for (mode_t mode : {0640, 0644, 0604, 0660}) {
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + catalog_.path(), state_.flag()}));
    ASSERT_TRUE(run.exit) << "still running with a keys.json of mode " << std::oct << mode;
    EXPECT_EQ(run.exit->code, 1) << run.exit->describe();
    char octal[8];
    std::snprintf(octal, sizeof(octal), "%04o", mode);
    EXPECT_NE(run.stderr_text.find(path + ": group or others have access (mode " + octal + ")"), std::string::npos)
        << run.stderr_text;
    EXPECT_NE(run.stderr_text.find("run chmod 600 " + path), std::string::npos) << run.stderr_text;
    stderr_seen_ += run.stderr_text;
  }
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  start();
  stop();
}

// ---------------------------------------------------------------------------------------
// No key material in logs, metrics or error bodies.

std::string hex_of(const tracking::SecretKey& key, const char* digits) {
  std::string out;
  for (uint8_t b : key) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// The ways a key's 32 bytes could be written: raw, standard base64 (as keys.json holds
// them), base64url, hex in either case; and the first 12 characters of each text form, so a
// key cut short is caught too.
std::vector<std::string> spellings_of(const tracking::SecretKey& key) {
  const std::string raw(reinterpret_cast<const char*>(key.data()), key.size());
  std::string url;
  tracking::base64url_encode(raw, url);
  std::string standard = url;
  for (char& c : standard) c = c == '-' ? '+' : c == '_' ? '/' : c;
  standard += '=';
  std::vector<std::string> out = {raw};
  for (const std::string& text :
       {standard, url, hex_of(key, "0123456789abcdef"), hex_of(key, "0123456789ABCDEF")}) {
    out.push_back(text);
    out.push_back(text.substr(0, 12));
  }
  return out;
}

TEST_F(KeyRotation, NoKeyBytesReachStderrMetricsOrReplies) {
  keys("create");
  keys("rotate");  // a signing and a verifying key
  start();
  const Issued issued = issue();
  ExpectAccepted(issued, 2, "valid");
  // Refusals of every kind: tokens broken, of an unknown key, missing; tags with a wrong
  // signature, an unknown kid, a broken payload; an unknown route; a bad decision.
  std::string flipped = token_bytes(issued.impression);
  flipped[flipped.size() - 1] ^= 1;
  std::string unknown_key = token_bytes(issued.click);
  unknown_key[1] = 9;
  for (const std::string& token : {token_text(flipped), token_text(unknown_key), std::string("AAAA"), std::string()}) {
    const HttpReply reply = track(token);
    EXPECT_EQ(reply.status, 400) << reply.body;
  }
  std::string bad_sig = issued.tag_query;
  bad_sig[bad_sig.size() - 1] = bad_sig.back() == '0' ? '1' : '0';
  std::string bad_kid = issued.tag_query;
  bad_kid.replace(bad_kid.find("&kid=2"), 6, "&kid=7");
  for (const std::string& query : {bad_sig, bad_kid, "d=x" + issued.tag_query.substr(issued.tag_query.find('&'))}) {
    EXPECT_EQ(fetch_tag(query).status, 403);
  }
  EXPECT_EQ(call("/v1/keys").status, 404);
  DecisionClient decisions(*server_);
  const CurlReply bad_decision = decisions.decide("{\"placements\": 1}");
  EXPECT_EQ(bad_decision.status, 422) << bad_decision.body;
  bodies_ += bad_decision.body;
  CurlSession admin;
  const CurlReply upload = admin.post(server_->admin_url("/admin/catalog"), "{\"not\": \"a catalog\"}");
  EXPECT_GE(upload.status, 400);
  bodies_ += upload.body;
  const std::string metrics = scrape_metrics(*server_);
  EXPECT_NE(metrics.find("decisiond_"), std::string::npos);
  stop();

  // A start refused for a broken key file: the message names the member, not its text.
  const std::string path = state_.path() + "/keys.json";
  const std::string good = read_text(path);
  std::string broken = good;
  const size_t key_at = broken.find("\"aesKey\": \"") + 11;
  broken.erase(key_at + 40, 1);  // 43 characters: not 32 bytes of base64
  {
    std::ofstream(path, std::ios::trunc) << broken;
  }
  const FinishedRun refused = run_to_exit(standard_flags({"--catalog=" + catalog_.path(), state_.flag()}));
  ASSERT_TRUE(refused.exit);
  EXPECT_EQ(refused.exit->code, 1);
  EXPECT_NE(refused.stderr_text.find("keys[0].aesKey: must be 32 bytes base64"), std::string::npos)
      << refused.stderr_text;
  EXPECT_EQ(refused.stderr_text.find(broken.substr(key_at, 12)), std::string::npos) << refused.stderr_text;
  stderr_seen_ += refused.stderr_text;
  {
    std::ofstream(path, std::ios::trunc) << good;
  }

  const absl::StatusOr<std::vector<tracking::KeyEntry>> entries = tracking::parse_key_file(good);
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_NE(stderr_seen_.find("serving"), std::string::npos);
  for (const tracking::KeyEntry& entry : *entries) {
    for (const tracking::SecretKey* key : {&entry.aes_key, &entry.hmac_key}) {
      // The scan looks for the right texts: the file holds the standard base64 one.
      EXPECT_NE(good.find(spellings_of(*key)[1]), std::string::npos) << "key " << entry.id;
      for (const std::string& spelling : spellings_of(*key)) {
        EXPECT_EQ(stderr_seen_.find(spelling), std::string::npos) << "key " << entry.id << " in stderr";
        EXPECT_EQ(metrics.find(spelling), std::string::npos) << "key " << entry.id << " in /metrics";
        EXPECT_EQ(bodies_.find(spelling), std::string::npos) << "key " << entry.id << " in a reply";
        EXPECT_EQ(tool_output_.find(spelling), std::string::npos) << "key " << entry.id << " printed by the tool";
      }
    }
  }
}

}  // namespace
}  // namespace integration
