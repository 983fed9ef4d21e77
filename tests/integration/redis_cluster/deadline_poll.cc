#include "tests/integration/redis_cluster/deadline_poll.h"

#include <thread>

namespace integration {

PollResult poll_until_settled(std::chrono::milliseconds timeout, std::chrono::milliseconds interval,
                              const std::function<std::string(bool* give_up)>& check) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  PollResult result;
  for (;;) {
    bool give_up = false;
    result.last_problem = check(&give_up);
    result.settled = result.last_problem.empty();
    if (result.settled || give_up || std::chrono::steady_clock::now() >= deadline) return result;
    std::this_thread::sleep_for(interval);
  }
}

}  // namespace integration
