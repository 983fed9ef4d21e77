#pragma once
// The test fixtures' one way to wait for a server or a cluster: a check polled until it
// finds nothing wrong, under a deadline. The interval only paces the polling; the bound is
// the timeout, so a slow machine makes a wait longer, never a test fail.
#include <chrono>
#include <functional>
#include <string>

namespace integration {

struct PollResult {
  bool settled = false;
  std::string last_problem;  // what the last check found still wrong
};

// check() returns what is still wrong, empty once settled. It sets *give_up when what it
// waits for can no longer happen (the process exited), which ends the polling at once.
PollResult poll_until_settled(std::chrono::milliseconds timeout, std::chrono::milliseconds interval,
                              const std::function<std::string(bool* give_up)>& check);

}  // namespace integration
