#include "tests/integration/wall_clock.h"

#include <chrono>
#include <thread>

namespace integration {

int64_t wall_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void sleep_until_wall_s(int64_t s) {
  const std::chrono::system_clock::time_point at{std::chrono::seconds(s)};
  while (wall_s() < s) std::this_thread::sleep_until(at);
}

void sleep_until_sealed_ones_expire(int64_t ttl_s) { sleep_until_wall_s(wall_s() + ttl_s); }

}  // namespace integration
