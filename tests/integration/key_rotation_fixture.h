#pragma once
// What the key tests share (docs/keys.md): a server on a state directory whose keys.json
// tools/decisiond-keys changes, decisions read for what they issued (tokens and a signed
// VAST tag), and checks of which key sealed it and that it still works. The server may be
// restarted between changes (key_rotation_test.cc) or told to re-read the file by SIGHUP
// (updates/keys_reload_test.cc).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/video_catalog.h"

namespace integration {

// What one decision issued: ad 1's impression and click tokens, ad 4's VAST tag query.
struct Issued {
  std::string impression;
  std::string click;
  std::string tag_query;  // "d=...&exp=...&kid=...&sig=..."
};

class KeyRotationFixture : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(state_.path().empty()); }

  // On this test's state directory, or on another node's.
  void start(const StateDir* node = nullptr);
  // SIGTERM, a clean exit, its stderr kept in stderr_seen_.
  void stop();
  // decisiond-keys --state-dir=<this test's> arguments, which must succeed.
  void keys(const std::string& arguments);

  // A video decision on a new connection (either core answers it).
  Issued issue();
  HttpReply call(std::string_view target);
  HttpReply track(std::string_view token) { return call("/v1/tracking?t=" + std::string(token)); }
  HttpReply fetch_tag(std::string_view query) { return call("/v1/vast?" + std::string(query)); }

  // Every token, click and tag issued works; the tag's document is sealed with sealing_id.
  void ExpectAccepted(const Issued& issued, int sealing_id, const std::string& what);
  void ExpectSealedWith(const Issued& issued, int id);
  // What a retired key sealed is refused: its impression and click 400 10050, its tag 403
  // 10052 with details.field "kid".
  void ExpectRefusedAsRetired(const Issued& issued);

  StateDir state_;
  TempFile catalog_{"catalog.json", video_catalog_json()};
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<TrackingClient> client_;
  std::string stderr_seen_;  // of every stopped server
  std::string bodies_;       // every reply read
  std::string tool_output_;  // every decisiond-keys run
};

}  // namespace integration
