#pragma once
// What the tests that run a real reactor loop share: a small reactor, a completion
// recorder that stops the loop once the expected completions came, a deadline that stops
// a loop a broken test would leave running, and a message handler that stops its core.
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/message.h"
#include "runtime/reactor.h"

namespace runtime::testing {

inline ReactorConfig small_reactor(int64_t tick_ms = 5) {
  ReactorConfig c;
  c.ring_entries = 64;
  c.recv_buffer_count = 16;
  c.recv_buffer_bytes = 1024;
  c.max_sockets = 4;
  c.tick_ms = tick_ms;
  return c;
}

// Records completions in arrival order, with the reactor's time of each, and stops the
// loop once `expected` have come.
class Completions final : public FileCompletion {
 public:
  Completions(Reactor& reactor, size_t expected) : reactor_(reactor), expected_(expected) {}
  void on_file_complete(uint8_t tag, int result) override {
    seen.emplace_back(tag, result);
    at_ns.push_back(reactor_.clock().monotonic_ns());
    if (seen.size() >= expected_) reactor_.request_stop();
  }
  int result_of(uint8_t tag) const {
    for (const auto& [t, r] : seen) {
      if (t == tag) return r;
    }
    return INT32_MIN;
  }
  std::vector<std::pair<uint8_t, int>> seen;
  std::vector<int64_t> at_ns;

 private:
  Reactor& reactor_;
  size_t expected_;
};

// Stops a loop that would otherwise hang a broken test, after five seconds.
class Deadline final : public Timer {
 public:
  explicit Deadline(Reactor& reactor) : reactor_(reactor) { reactor_.timers().schedule(*this, 5000); }
  ~Deadline() override { reactor_.timers().cancel(*this); }
  void on_expire() override {
    expired = true;
    reactor_.request_stop();
  }
  bool expired = false;

 private:
  Reactor& reactor_;
};

// A handler for a message that stops the core receiving it.
inline void stop_core(Reactor& here, const Message&) { here.request_stop(); }

}  // namespace runtime::testing
