#pragma once
// A --state-dir whose keys.json the test wrote (docs/keys.md), so that it can open the
// tracking tokens the server seals with those keys (docs/tokens.md) and read what they
// carry, such as the user id that GDPR may withhold. The tracking endpoint is not the way
// in: a token's contents never leave the server.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"
#include "tracking/tokens/tracking_event.h"

namespace integration {

class StateDirWithKeys {
 public:
  // A fresh private directory holding one fixed key (mode 0600, as the server demands).
  StateDirWithKeys();
  StateDirWithKeys(const StateDirWithKeys&) = delete;
  StateDirWithKeys& operator=(const StateDirWithKeys&) = delete;
  // Removes the directory with whatever the server wrote into it.
  ~StateDirWithKeys();

  // "--state-dir=<directory>", placed after the harness's own (later flags win).
  std::string flag() const { return "--state-dir=" + directory_; }

  // The event sealed in token, judged against the current time; its strings point into
  // storage. A failure names the verdict.
  ::testing::AssertionResult Open(std::string_view token, std::string& storage, tracking::TrackingEvent& event);
  // A token sealed with these keys, as the server would seal it; of any kind, known to the
  // server or not (tracking::TokenCodec::encode_any_kind).
  std::string Seal(const tracking::TrackingEvent& event);
  const std::string& path() const { return directory_; }

 private:
  std::string directory_;
  tracking::KeyRing keys_;
  tracking::TokenCodec codec_;
};

// The token of every impression URL of every creative of a decision reply, placement by
// placement; a URL that does not start with tracking_prefix ("{base_url}/v1/tracking?t=")
// gives an empty token.
std::vector<std::string> impression_tokens(const std::string& body, std::string_view tracking_prefix);

}  // namespace integration
