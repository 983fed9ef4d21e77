#pragma once
// Starts one reactor thread per core, optionally pinned, and lets the main thread reach
// them by message. Per-core set-up runs on each core's own thread (its ring is
// single-issuer) and every core finishes set-up before any loop runs, so every ring is
// known before the first message is posted.
#include <liburing.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"

namespace runtime {

struct CoreGroupConfig {
  uint32_t cores = 1;
  std::vector<int> cpus;  // reactor i pinned to cpus[i] (CpuPlan::reactors); empty: not pinned
  ReactorConfig reactor;
};

class CoreGroup {
 public:
  // Runs on the core's thread after its reactor is initialised, before the loop.
  using CoreSetup = std::function<absl::Status(Reactor&)>;
  // Runs on the core's thread after its loop has ended, before the reactor is destroyed.
  using CoreTeardown = std::function<void(Reactor&)>;

  CoreGroup(const CoreGroupConfig& config, const Clock& clock);
  ~CoreGroup();

  // Returns once every core is running, or the first set-up error (no core runs then).
  absl::Status start(CoreSetup setup, CoreTeardown teardown);
  // From the main thread: queues a message for a core and wakes it; false when that queue
  // is full (the caller decides).
  [[nodiscard]] bool post(uint32_t core, const Message& message);
  // From the main thread, a message that wants no answer (runtime/one_way_post.h): posted
  // at once, or after waiting for the core to make room in its queue (an eventfd the core
  // writes, counted in OneWayCounters::waited). Never refused; the core must be running,
  // or have room (checked).
  void post_one_way(uint32_t core, const Message& message);
  void join();

  uint32_t cores() const { return config_.cores; }
  Mailbox& mailbox() { return mailbox_; }

 private:
  void core_main(uint32_t index, int cpu);

  const CoreGroupConfig config_;
  const Clock& clock_;
  Mailbox mailbox_;
  io_uring control_ring_{};
  bool control_ring_ready_ = false;
  CoreSetup setup_;
  CoreTeardown teardown_;
  std::vector<std::thread> threads_;
  std::vector<absl::Status> setup_results_;
  std::unique_ptr<struct StartLatch> latch_;
};

}  // namespace runtime
