#pragma once
// Free loopback ports for the servers the test fixtures start (Redis, NATS).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace integration {

// count distinct ports free on 127.0.0.1 now, learned by binding port 0; empty when the
// kernel would not give that many. Another process may still take one before the server
// binds it: the fixtures then pick again.
std::vector<uint16_t> free_loopback_ports(size_t count);

}  // namespace integration
