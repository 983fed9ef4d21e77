#pragma once
// What the decisiond-keys tests share: their clock, reading a file whole, the ids a key
// file holds, and a run of the real binary (DECISIOND_KEYS_BINARY, set by CMake).
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/command_run.h"
#include "tracking/tokens/key_ring.h"

namespace tools::decisiond_keys::testing {

inline constexpr int64_t kNow = 1'795'262'400;  // 2026-11-21T12:00:00Z

inline std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The ids of the keys in dir's keys.json, as the server's reader reads them.
inline std::vector<uint16_t> ids_in(const std::string& dir) {
  const absl::StatusOr<tracking::KeyRing> ring = tracking::KeyRing::load(dir);
  EXPECT_TRUE(ring.ok()) << ring.status();
  std::vector<uint16_t> ids;
  if (ring.ok()) {
    for (const tracking::KeyEntry& entry : ring->entries()) ids.push_back(entry.id);
  }
  return ids;
}

using ToolRun = test_support::CommandRun;

// Without DECISIOND_STATE_DIR, which stands in for --state-dir. stderr_too: standard error
// joins the output; otherwise it is dropped.
inline ToolRun run(const std::string& arguments, bool stderr_too = true) {
  const std::string command = "env -u DECISIOND_STATE_DIR " + std::string(DECISIOND_KEYS_BINARY) + " " + arguments +
                              (stderr_too ? " 2>&1" : " 2>/dev/null");
  return test_support::run_command(command);
}

}  // namespace tools::decisiond_keys::testing
