#pragma once
// A real reactor on the test's thread, for the writers that go through its ring: run() until
// a callback stops it, with a deadline so a broken test fails instead of hanging.
#include <functional>
#include <memory>

#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"
#include "runtime/timer_wheel.h"

namespace tracking::testing {

class ReactorLoop {
 public:
  ReactorLoop() : mailbox_(1), reactor_(0, mailbox_, runtime::SystemClock::instance(), config()) {
    init_ok_ = reactor_.init().ok();
  }
  bool ready() const { return init_ok_; }
  runtime::Reactor& reactor() { return reactor_; }

  // Runs the loop; `stop` is polled every 5 ms and stops it when true, as does the deadline.
  // Returns whether stop() held.
  bool run_until(std::function<bool()> stop, int64_t deadline_ms = 10'000) {
    Poll poll(reactor_, std::move(stop), deadline_ms);
    reactor_.timers().schedule(poll, 5);
    reactor_.run();
    return poll.stopped_by_condition;
  }
  // Runs the loop for about ms.
  void run_for(int64_t ms) {
    const int64_t until = runtime::SystemClock::instance().monotonic_ns() / 1'000'000 + ms;
    run_until([until] { return runtime::SystemClock::instance().monotonic_ns() / 1'000'000 >= until; }, ms + 1000);
  }

 private:
  static runtime::ReactorConfig config() {
    runtime::ReactorConfig c;
    c.ring_entries = 64;
    c.recv_buffer_count = 16;
    c.recv_buffer_bytes = 1024;
    c.max_sockets = 4;
    c.tick_ms = 5;
    return c;
  }

  struct Poll final : runtime::Timer {
    Poll(runtime::Reactor& r, std::function<bool()> s, int64_t deadline_ms)
        : reactor(r), stop(std::move(s)), left_ms(deadline_ms) {}
    ~Poll() override { reactor.timers().cancel(*this); }
    void on_expire() override {
      left_ms -= 5;
      if (stop()) {
        stopped_by_condition = true;
      } else if (left_ms > 0) {
        reactor.timers().schedule(*this, 5);
        return;
      }
      reactor.request_stop();
    }
    runtime::Reactor& reactor;
    std::function<bool()> stop;
    int64_t left_ms;
    bool stopped_by_condition = false;
  };

  runtime::Mailbox mailbox_;
  runtime::Reactor reactor_;
  bool init_ok_ = false;
};

}  // namespace tracking::testing
