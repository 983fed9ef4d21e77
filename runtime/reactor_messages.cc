// Messages between cores and the tick: post() and post_one_way() queue for another core and
// flush_wakes() wakes it through its ring; the tick drives the timer wheel and catches a
// missed wake-up.
#include "runtime/check.h"
#include "runtime/reactor.h"

namespace runtime {

bool Reactor::post(uint32_t to_core, const Message& message) {
  DECISIOND_CHECK(to_core < wake_pending_.size());
  Message m = message;
  m.from_core = index_;
  if (!mailbox_.queue(index_, to_core).push(m)) return false;
  mark_wake(to_core);
  return true;
}

void Reactor::post_one_way(uint32_t to_core, const Message& message) {
  if (one_way_.post(to_core, message)) mark_wake(to_core);
}

void Reactor::flush_wakes() {
  if (!any_wake_pending_) return;
  any_wake_pending_ = false;
  for (uint32_t core = 0; core < wake_pending_.size(); ++core) {
    if (!wake_pending_[core]) continue;
    wake_pending_[core] = 0;
    if (core == index_) {
      drain_mailbox();
      continue;
    }
    const int fd = mailbox_.ring_fd(core);
    if (fd < 0) continue;  // that core has stopped; its tick-less queue is never read again
    last_cross_core_ns_ = clock_.monotonic_ns();
    io_uring_sqe* sqe = next_sqe();
    io_uring_prep_msg_ring(sqe, fd, 0, user_data(Op::kWake, 0, index_), 0);
    sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
    io_uring_sqe_set_data64(sqe, user_data(Op::kWakeSent, 0, core));
  }
}

void Reactor::drain_mailbox() {
  bool from_other_core = false;
  const uint32_t control = mailbox_.control_sender();
  for (uint32_t from = 0; from <= control; ++from) {
    SpscQueue<Message>& queue = mailbox_.queue(from, index_);
    bool took = false;
    while (std::optional<Message> m = queue.pop()) {
      took = true;
      m->run(*this, *m);
    }
    if (!took) continue;
    if (from == control) {
      mailbox_.control_queue_taken(index_);  // the main thread may wait for this room
    } else if (from != index_) {
      from_other_core = true;
    }
  }
  if (from_other_core) last_cross_core_ns_ = clock_.monotonic_ns();
}

namespace {
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}
}  // namespace

bool Reactor::poll_mailbox_before_sleep(int64_t now_ns) {
  if (config_.idle_poll_ns <= 0) return false;
  const int64_t until = last_cross_core_ns_ + config_.idle_poll_ns;
  if (now_ns >= until) return false;
  io_uring_submit(&ring_);  // the kernel gets this iteration's work before we poll
  for (uint32_t spins = 1;; ++spins) {
    for (uint32_t from = 0; from <= mailbox_.cores(); ++from) {
      if (mailbox_.queue(from, index_).has_items()) return true;
    }
    if ((spins & 63) == 0) {
      // A socket's completions end the poll too. With DEFER_TASKRUN they reach the
      // completion queue only when the ring is entered: a non-blocking enter every 64
      // spins (a few microseconds), only while polling.
      if (deferred_task_run_) io_uring_get_events(&ring_);
      if (io_uring_cq_ready(&ring_) > 0) return false;
      if (clock_.monotonic_ns() >= until) return false;
    }
    cpu_relax();
  }
}

void Reactor::arm_tick() {
  tick_spec_.tv_sec = config_.tick_ms / 1000;
  tick_spec_.tv_nsec = (config_.tick_ms % 1000) * 1'000'000;
  io_uring_sqe* sqe = next_sqe();
  io_uring_prep_timeout(sqe, &tick_spec_, 0, 0);
  io_uring_sqe_set_data64(sqe, user_data(Op::kTick, 0, 0));
}

void Reactor::on_tick() {
  if (accept_rearm_pending_) {
    accept_rearm_pending_ = false;
    for (uint32_t i = 0; i < listeners_.size(); ++i) arm_accept(i);
  }
  timers_.advance(clock_.monotonic_ms());
  wall_minus_monotonic_ns_ = clock_.wall_ns() - clock_.monotonic_ns();  // follows NTP's slews
  // A missed wake-up (a kernel that cannot post to this ring) costs at most one tick.
  drain_mailbox();
  if (!stopping_) arm_tick();
}

}  // namespace runtime
