#include "runtime/core_group.h"

#include <pthread.h>

#include <latch>

#include "absl/strings/str_cat.h"
#include "runtime/check.h"
#include "runtime/cpu_affinity.h"
#include "runtime/log/core_lines.h"
#include "runtime/log/writer_thread.h"

namespace runtime {

struct StartLatch {
  explicit StartLatch(uint32_t cores) : set_up(cores) {}
  std::latch set_up;
};

CoreGroup::CoreGroup(const CoreGroupConfig& config, const Clock& clock)
    : config_(config), clock_(clock), mailbox_(config.cores) {}

CoreGroup::~CoreGroup() {
  join();
  if (control_ring_ready_) io_uring_queue_exit(&control_ring_);
}

absl::Status CoreGroup::start(CoreSetup setup, CoreTeardown teardown) {
  if (int rc = io_uring_queue_init(8, &control_ring_, 0); rc < 0) {
    return absl::ErrnoToStatus(-rc, "io_uring_queue_init (control ring)");
  }
  control_ring_ready_ = true;
  const std::vector<int>& cpus = config_.cpus;
  const bool pin = !cpus.empty();
  if (pin && cpus.size() < config_.cores) {
    return absl::InvalidArgumentError(absl::StrCat("--pin needs ", config_.cores, " CPUs, ", cpus.size(), " given"));
  }
  setup_ = std::move(setup);
  teardown_ = std::move(teardown);
  setup_results_.assign(config_.cores, absl::OkStatus());
  // Here, on the starting thread: the writer shares its CPUs, not a reactor's.
  log::start_writer();
  latch_ = std::make_unique<StartLatch>(config_.cores);
  for (uint32_t i = 0; i < config_.cores; ++i) {
    const int cpu = pin ? cpus[i] : -1;
    threads_.emplace_back([this, i, cpu] { core_main(i, cpu); });
  }
  latch_->set_up.wait();
  absl::Status first_error = absl::OkStatus();
  for (const absl::Status& s : setup_results_) {
    if (!s.ok()) {
      first_error = s;
      break;
    }
  }
  if (!first_error.ok()) {
    // The cores that did set up are already running: stop them.
    Message stop;
    stop.run = [](Reactor& here, const Message&) { here.request_stop(); };
    for (uint32_t i = 0; i < config_.cores; ++i) {
      if (setup_results_[i].ok()) post_one_way(i, stop);  // a core that failed never runs
    }
    join();
  }
  return first_error;
}

void CoreGroup::core_main(uint32_t index, int cpu) {
  // "core-<index>" in top -H, perf and /proc/<pid>/task/*/comm: an operator tells the
  // serving threads from the rest (io_uring's iou-wrk-* workers, the events shipper).
  pthread_setname_np(pthread_self(), absl::StrCat("core-", index).c_str());
  // Every line this thread says from here on is queued, never written by it.
  log::CoreLogScope queued_lines(index);
  if (cpu >= 0) {
    if (absl::Status s = pin_current_thread(cpu); !s.ok()) {
      setup_results_[index] = s;
      latch_->set_up.arrive_and_wait();
      return;
    }
  }
  Reactor reactor(index, mailbox_, clock_, config_.reactor);
  absl::Status status = reactor.init();
  if (status.ok()) status = setup_(reactor);
  if (!status.ok()) {
    setup_results_[index] = absl::Status(status.code(), absl::StrCat("core ", index, ": ", status.message()));
  }
  // No core serves before every core is set up: set-up publishes per-core state (ring
  // fds, services) that any running core may read.
  latch_->set_up.arrive_and_wait();
  if (!status.ok()) return;
  // Runs until a message asks it to stop (the abort message above, or shutdown).
  reactor.run();
  teardown_(reactor);
}

bool CoreGroup::post(uint32_t core, const Message& message) {
  DECISIOND_CHECK(core < config_.cores);
  Message m = message;
  m.from_core = mailbox_.control_sender();
  if (!mailbox_.queue(mailbox_.control_sender(), core).push(m)) return false;
  const int fd = mailbox_.ring_fd(core);
  if (fd < 0) return true;  // not running yet: its first loop iteration drains the queue
  io_uring_sqe* sqe = io_uring_get_sqe(&control_ring_);
  if (sqe == nullptr) {
    io_uring_submit(&control_ring_);
    sqe = io_uring_get_sqe(&control_ring_);
  }
  io_uring_prep_msg_ring(sqe, fd, 0, Reactor::wake_token(), 0);
  sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
  io_uring_submit(&control_ring_);
  // Reap failure completions so the small ring never fills; a lost wake costs one tick.
  io_uring_cqe* cqe;
  while (io_uring_peek_cqe(&control_ring_, &cqe) == 0) io_uring_cqe_seen(&control_ring_, cqe);
  return true;
}

void CoreGroup::post_one_way(uint32_t core, const Message& message) {
  if (post(core, message)) return;
  mailbox_.one_way_counters(core).waited.add();
  for (;;) {
    mailbox_.control_sender_waits_for(core);
    if (post(core, message)) break;  // the core made room before it could see the wait
    // A core that is not running never takes from its queue: a wait would never end.
    DECISIOND_CHECK_MSG(mailbox_.ring_fd(core) >= 0,
                        "the main thread's message found the queue of a core that is not running full");
    mailbox_.wait_for_control_room();
  }
  mailbox_.control_sender_waits_no_more();
}

void CoreGroup::join() {
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

}  // namespace runtime
