#include "tests/integration/readyz.h"

#include <thread>

#include "tests/integration/curl_session.h"

namespace integration {

bool wait_for_readyz(const ServerProcess& server, long status, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  CurlSession session;
  for (;;) {
    if (session.get(server.admin_url("/readyz")).status == status) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    // Polling interval only; the deadline is the bound.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace integration
