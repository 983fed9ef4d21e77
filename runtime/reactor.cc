// The reactor's loop: setting up the ring, waiting for completions and handing each to the
// part that issued it (reactor_sockets.cc, reactor_files.cc, reactor_async.cc,
// reactor_messages.cc).
#include "runtime/reactor.h"

#include <cerrno>
#include <cstring>

#include "runtime/cpu_affinity.h"
#include "runtime/log/logger.h"

namespace runtime {

namespace {
constexpr uint16_t kBufferGroup = 0;

struct SetupAttempt {
  unsigned flags;
  std::string_view name;
};
// Best first. SINGLE_ISSUER and DEFER_TASKRUN (6.1+) let the kernel skip locking and run
// completion work only when we ask for events; COOP_TASKRUN (5.19+) at least avoids IPIs.
constexpr SetupAttempt kSetupAttempts[] = {
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SUBMIT_ALL,
     "single_issuer+defer_taskrun"},
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,
     "single_issuer+coop_taskrun"},
    {IORING_SETUP_COOP_TASKRUN, "coop_taskrun"},
    {0, "plain"},
};
}  // namespace

Reactor::Reactor(uint32_t index, Mailbox& mailbox, const Clock& clock, const ReactorConfig& config)
    : index_(index),
      mailbox_(mailbox),
      clock_(clock),
      config_(config),
      timers_(clock.monotonic_ms(), config.tick_ms),
      slots_(config.max_sockets),
      wake_pending_(mailbox.cores(), 0),
      one_way_(mailbox, index) {
  free_slots_.reserve(config.max_sockets);
  for (uint32_t i = config.max_sockets; i > 0; --i) free_slots_.push_back(i - 1);
}

absl::Status Reactor::init() {
  int last_error = 0;
  for (const SetupAttempt& attempt : kSetupAttempts) {
    io_uring_params params;
    std::memset(&params, 0, sizeof(params));
    params.flags = attempt.flags | IORING_SETUP_CQSIZE;
    params.cq_entries = config_.ring_entries * 4;
    last_error = io_uring_queue_init_params(config_.ring_entries, &ring_, &params);
    if (last_error == 0) {
      setup_mode_ = attempt.name;
      deferred_task_run_ = (attempt.flags & IORING_SETUP_DEFER_TASKRUN) != 0;
      receive_timestamps_ = deferred_task_run_;
      break;
    }
  }
  if (last_error != 0) return absl::ErrnoToStatus(-last_error, "io_uring_queue_init");
  ring_ready_ = true;
  if (absl::Status s = buffers_.init(&ring_, kBufferGroup, config_.recv_buffer_count,
                                     config_.recv_buffer_bytes);
      !s.ok()) {
    return s;
  }
  if (!config_.worker_cpus.empty()) {
    // Applies to the workers of the calling thread's rings: this core's thread.
    cpu_set_t set = cpu_set_of(config_.worker_cpus);
    if (int rc = io_uring_register_iowq_aff(&ring_, sizeof(set), &set); rc < 0) {
      return absl::ErrnoToStatus(-rc, "io_uring_register_iowq_aff");
    }
  }
  mailbox_.set_ring_fd(index_, ring_.ring_fd);
  return absl::OkStatus();
}

Reactor::~Reactor() {
  // Plain system calls are fine here: the loop has ended.
  for (Listener& l : listeners_) {
    if (l.fd >= 0) ::close(l.fd);
  }
  for (SocketSlot& s : slots_) {
    if (s.fd >= 0 && !s.close_submitted) ::close(s.fd);
  }
  if (ring_ready_) {
    mailbox_.set_ring_fd(index_, -1);
    io_uring_queue_exit(&ring_);
  }
}

io_uring_sqe* Reactor::next_sqe() {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  while (sqe == nullptr) {
    // Submission queue full: hand what we have to the kernel and take a fresh entry.
    io_uring_submit(&ring_);
    sqe = io_uring_get_sqe(&ring_);
  }
  return sqe;
}

void Reactor::remove_loop_hook(LoopHook& hook) {
  std::erase(loop_hooks_, &hook);
}

void Reactor::run() {
  stopping_ = false;  // a reactor may be run again after a stop (tests do)
  arm_tick();
  drain_mailbox();
  // The clock is read twice when the loop runs dry and once per turn otherwise (the turn's
  // start, for overload shedding: a vDSO read beside the io_uring_enter it follows).
  busy_since_ns_ = clock_.monotonic_ns();
  turn_started_ns_ = busy_since_ns_;
  wall_minus_monotonic_ns_ = clock_.wall_ns() - clock_.monotonic_ns();
  while (!stopping_) {
    for (size_t i = 0; i < loop_hooks_.size(); ++i) loop_hooks_[i]->before_wait();
    post_kept_one_way();
    flush_wakes();
    if (io_uring_cq_ready(&ring_) == 0) {
      const int64_t wait_from_ns = clock_.monotonic_ns();
      load_.busy_ns.add(static_cast<uint64_t>(wait_from_ns - busy_since_ns_));
      const bool message = poll_mailbox_before_sleep(wait_from_ns);
      if (!message) submit_and_wait();
      busy_since_ns_ = clock_.monotonic_ns();
      turn_started_ns_ = busy_since_ns_;
      load_.wait_ns.add(static_cast<uint64_t>(busy_since_ns_ - wait_from_ns));
      if (message) {
        drain_mailbox();
        continue;  // what the messages queued goes out at the top of the loop
      }
    } else {
      submit_and_wait();  // returns at once: completions are waiting
      turn_started_ns_ = clock_.monotonic_ns();
    }
    unsigned head;
    unsigned seen = 0;
    io_uring_cqe* cqe;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      dispatch(*cqe);
      ++seen;
    }
    io_uring_cq_advance(&ring_, seen);
  }
  for (size_t i = 0; i < loop_hooks_.size(); ++i) loop_hooks_[i]->before_wait();
  post_kept_one_way();
  flush_wakes();
  io_uring_submit(&ring_);
}

void Reactor::submit_and_wait() {
  const int rc = io_uring_submit_and_wait(&ring_, 1);
  if (rc < 0 && rc != -EINTR && rc != -ETIME && rc != -EBUSY && rc != -EAGAIN) {
    // Nothing sensible can continue without the ring.
    constexpr log::Logger kLog("reactor");
    kLog.error_then_abort("io_uring_enter failed: %s", std::strerror(-rc));
  }
}

void Reactor::dispatch(const io_uring_cqe& cqe) {
  const uint64_t data = cqe.user_data;
  const Op op = static_cast<Op>(data >> 56);
  const uint32_t generation = static_cast<uint32_t>(data >> 32) & 0xffffff;
  const uint32_t slot = static_cast<uint32_t>(data);
  switch (op) {
    case Op::kAccept:
      on_accept(slot, cqe);
      return;
    case Op::kTick:
      on_tick();
      return;
    case Op::kWake:
      drain_mailbox();
      return;
    case Op::kFile: {
      // Sign-extend nothing: user-space addresses have the top 16 bits clear.
      auto* done = reinterpret_cast<FileCompletion*>(data & 0xffff'ffff'ffffull);
      done->on_file_complete(static_cast<uint8_t>(data >> 48), cqe.res);
      return;
    }
    case Op::kWakeSent:
      // Only failures arrive here (success is skipped): retry on the next iteration;
      // the receiver's tick drains its queues anyway.
      if (cqe.res < 0 && slot < wake_pending_.size()) {
        wake_pending_[slot] = 1;
        any_wake_pending_ = true;
      }
      return;
    default:
      break;
  }
  if (slot == UINT32_MAX) return;  // listener cancel or close
  on_socket_completion(op, generation, slot, cqe);
}

}  // namespace runtime
